import { escapeHtml } from '../contracts/html-escape.ts';
import { signInDocument, type CallbackPage } from './callback-page.ts';

/**
 * The page that ends a sign-in without a pop-up: it sends the browser on, replacing itself in the history, to exactly
 * `target` (the page the sign-in started from, the marker in its fragment). A page and not a redirect: the platform's
 * consent page is a form whose CSP `form-action` lists only the callback's origin, and browsers apply `form-action`
 * to every redirect that follows the form's submission (measured in Chromium: a 303 from the callback to the
 * partner's page is never followed), while a navigation this page starts is its own. The address reaches the script
 * as JSON in a data block; without script, a link does the same.
 */
export function renderReturnPage(target: string): CallbackPage {
  return signInDocument({
    body: `<main>
<p><a href="${escapeHtml(target)}">Back to the poll</a></p>
</main>`,
    dataId: 'sign-in-return',
    data: { target },
    script: `location.replace(JSON.parse(document.getElementById('sign-in-return').textContent).target);`,
  });
}
