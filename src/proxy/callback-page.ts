import type { SignInResultMessage } from '../contracts/proxy-contract.ts';
import { randomId } from './state/session-store.ts';
import { escapeHtml } from '../contracts/html-escape.ts';
import { pageIconLink, pageIconSource } from '../contracts/page-icon.ts';

/**
 * The page that ends the sign-in popup. It posts a `SignInResultMessage` to the exact origin of the card that opened
 * it, then closes; with no opener (the popup was blocked into a tab, or the card's page is gone) it stays open and
 * says what happened. Every value reaches the page as JSON inside a data block and is shown with `textContent`, and a
 * strict CSP allows only this page's own nonced script and style.
 */
export interface CallbackPage {
  readonly html: string;
  readonly headers: Readonly<Record<string, string>>;
}

export function renderCallbackPage(
  result: SignInResultMessage,
  openerOrigin: string | undefined,
): CallbackPage {
  const heading = result.ok ? 'You are signed in' : 'Sign-in did not finish';
  const detail = result.ok
    ? 'You can close this window and go back to the poll.'
    : `${result.message} You can close this window and try again from the poll.`;
  return signInDocument({
    body: `<main>
<h1 id="heading">${escapeHtml(heading)}</h1>
<p id="detail">${escapeHtml(detail)}</p>
</main>`,
    dataId: 'sign-in-result',
    data: { result, openerOrigin: openerOrigin ?? null },
    script: `(() => {
  const { result, openerOrigin } = JSON.parse(document.getElementById('sign-in-result').textContent);
  if (window.opener && openerOrigin) {
    window.opener.postMessage(result, openerOrigin);
    // Closing at once can drop the message or let the opener see the window closed first (then a card on another
    // site reads no session in its own cookie partition): close once the message has had time to arrive.
    setTimeout(() => window.close(), 300);
  }
})();`,
  });
}

/**
 * A page that ends a sign-in: `body`, then `data` as JSON in a data block (`dataId`) and one `script` that reads it,
 * under a strict CSP that allows only this page's own nonced script and style. No Referer leaves and nothing is
 * cached: the callback URL carries the authorization code, the page may carry a handoff code.
 */
export function signInDocument(parts: {
  readonly body: string;
  readonly dataId: string;
  readonly data: unknown;
  readonly script: string;
}): CallbackPage {
  const nonce = randomId();
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Fan Polls sign-in</title>
${pageIconLink}
<style nonce="${nonce}">
body { font: 16px/1.5 system-ui, sans-serif; margin: 2rem; color: #1b1b1f; background: #fff; }
h1 { font-size: 1.25rem; }
</style>
</head>
<body>
${parts.body}
<script type="application/json" id="${parts.dataId}">${jsonForScriptBlock(parts.data)}</script>
<script nonce="${nonce}">
${parts.script}
</script>
</body>
</html>
`;
  return {
    html,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; ${pageIconSource}; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
      'Referrer-Policy': 'no-referrer',
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  };
}

/** JSON that cannot end its `<script>` block: `<`, `>` and `&` as unicode escapes, plus the JS line separators. */
export function jsonForScriptBlock(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
