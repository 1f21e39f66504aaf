import { html, raw } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';
import { oauthChoices } from './oauth-choices.ts';
import { pageIconLink, pageIconSource } from '../../contracts/page-icon.ts';

/** What the login and consent page shows. Every string is escaped by `html`. */
export interface ConsentPageView {
  readonly applicationName: string;
  /** Where the fan is sent back to, shown so that they can tell who is asking. */
  readonly redirectHost: string;
  readonly authorizationId: string;
  readonly nonce: string;
  readonly styleNonce: string;
  readonly demoFans: readonly { readonly username: string; readonly displayName: string }[];
  readonly demoPassword: string;
  readonly errorMessage?: string;
  readonly username?: string;
}

export interface ErrorPageView {
  readonly title: string;
  readonly message: string;
  readonly styleNonce: string;
}

/** A constant, inserted raw: escaping would break the quotes inside a <style> element. */
const styles = `
  :root { color-scheme: light dark; --accent: #d7263d; --ink: #1d1b26; --muted: #5c5870; --card: #fff; --bg: #f1eff7; }
  @media (prefers-color-scheme: dark) { :root { --ink: #f2f0fa; --muted: #b3aec7; --card: #232030; --bg: #15131d; } }
  * { box-sizing: border-box; }
  body { margin: 0; min-height: 100vh; display: grid; place-items: center; padding: 24px;
    font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: var(--bg); }
  main { width: 100%; max-width: 420px; background: var(--card); border-radius: 16px; padding: 32px;
    box-shadow: 0 12px 40px rgb(0 0 0 / 0.12); }
  .brand { margin: 0 0 4px; font-size: 13px; font-weight: 700; letter-spacing: 0.08em; text-transform: uppercase;
    color: var(--accent); }
  h1 { margin: 0 0 8px; font-size: 22px; line-height: 1.3; }
  p { margin: 0 0 16px; color: var(--muted); }
  ul.scopes { margin: 0 0 20px; padding-left: 20px; color: var(--ink); }
  label { display: block; margin: 0 0 4px; font-weight: 600; font-size: 14px; }
  input { width: 100%; margin: 0 0 16px; padding: 10px 12px; font: inherit; color: inherit; background: transparent;
    border: 1px solid var(--muted); border-radius: 8px; }
  input:focus-visible, button:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
  .actions { display: flex; gap: 12px; margin-top: 8px; }
  button { flex: 1 1 auto; padding: 11px 16px; font: inherit; font-weight: 600; border-radius: 8px; cursor: pointer;
    border: 1px solid var(--accent); }
  button.allow { background: var(--accent); color: #fff; }
  button.allow { flex-grow: 2; }
  button.deny { background: transparent; color: var(--ink); border-color: var(--muted); }
  .error { margin: 0 0 16px; padding: 10px 12px; border-radius: 8px; color: #8a0f1f; background: #fde3e6;
    font-weight: 600; }
  details { margin-top: 24px; font-size: 14px; color: var(--muted); }
  summary { cursor: pointer; }
  code { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; }
`;

/** The sandbox's login and consent page: sign in as a seeded fan, then allow or deny the application. */
export function renderConsentPage(view: ConsentPageView): HtmlEscapedString | Promise<HtmlEscapedString> {
  return page(
    `Sign in to allow ${view.applicationName}`,
    view.styleNonce,
    html`
      <p class="brand">Fan platform sandbox</p>
      <h1>${view.applicationName} wants to connect to your fan account</h1>
      <p>Signing in lets it, on your behalf:</p>
      <ul class="scopes">
        <li>read your user id</li>
        <li>see and cast your votes in polls</li>
      </ul>
      <p>You will then be sent back to <strong>${view.redirectHost}</strong>.</p>
      ${view.errorMessage ? html`<p class="error" role="alert" id="sign-in-error">${view.errorMessage}</p>` : ''}
      <form method="post" action="${oauthChoices.decisionPath}">
        <input type="hidden" name="authorization" value="${view.authorizationId}" />
        <input type="hidden" name="nonce" value="${view.nonce}" />
        <label for="username">Username</label>
        <input
          id="username"
          name="username"
          autocomplete="username"
          required
          value="${view.username ?? ''}"
          ${view.errorMessage ? html`aria-describedby="sign-in-error"` : ''}
        />
        <label for="password">Password</label>
        <input id="password" name="password" type="password" autocomplete="current-password" required />
        <div class="actions">
          <!-- Allow comes first: pressing Enter in a field submits with the first button. -->
          <button class="allow" type="submit" name="decision" value="allow">Sign in and allow</button>
          <button class="deny" type="submit" name="decision" value="deny" formnovalidate>Deny</button>
        </div>
      </form>
      <details>
        <summary>Demo fans</summary>
        <p>Every demo fan's password is <code>${view.demoPassword}</code>.</p>
        <ul>
          ${view.demoFans.map((fan) => html`<li><code>${fan.username}</code>: ${fan.displayName}</li>`)}
        </ul>
      </details>
    `,
  );
}

/** The page shown instead of a redirect when the application or its redirect cannot be trusted. */
export function renderErrorPage(view: ErrorPageView): HtmlEscapedString | Promise<HtmlEscapedString> {
  return page(
    view.title,
    view.styleNonce,
    html`
      <p class="brand">Fan platform sandbox</p>
      <h1>${view.title}</h1>
      <p role="alert">${view.message}</p>
      <p>You were not sent back to the application. Close this window and start again from there.</p>
    `,
  );
}

/** The frame every sandbox page shares: the head with its one stylesheet (by nonce), and the page's main content. */
function page(
  title: string,
  styleNonce: string,
  main: HtmlEscapedString | Promise<HtmlEscapedString>,
): HtmlEscapedString | Promise<HtmlEscapedString> {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${title}</title>
        ${raw(pageIconLink)}
        <style nonce="${styleNonce}">
          ${raw(styles)}
        </style>
      </head>
      <body>
        <main>${main}</main>
      </body>
    </html>`;
}

/**
 * Headers of every HTML page: a strict CSP (no script at all; the one stylesheet by nonce; forms only to this
 * origin and, because Chromium applies `form-action` to the redirect that follows, the application's redirect
 * origin), no framing, no referrer (the URL carries `state`), no caching.
 */
export function pageHeaders(styleNonce: string, redirectUri?: string): Record<string, string> {
  const formTargets = ["'self'"];
  if (redirectUri !== undefined) formTargets.push(cspSource(redirectUri));
  return {
    'Content-Security-Policy': [
      "default-src 'none'",
      pageIconSource,
      `style-src 'nonce-${styleNonce}'`,
      `form-action ${formTargets.join(' ')}`,
      "frame-ancestors 'none'",
      "base-uri 'none'",
    ].join('; '),
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'no-referrer',
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'no-store',
  };
}

/** A CSP source for a registered redirect URI: its origin, or its scheme for a custom-scheme (native app) URI. */
function cspSource(redirectUri: string): string {
  const url = new URL(redirectUri);
  return url.origin === 'null' ? url.protocol : url.origin;
}
