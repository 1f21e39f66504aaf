import { demoPassword } from '../data/fans.ts';
import { oauthChoices } from './oauth-choices.ts';

/** What the fan does on the login and consent page. */
export interface ConsentAnswer {
  readonly decision: 'allow' | 'deny';
  readonly username?: string;
  readonly password?: string;
}

/** Where the OAuth server left the browser: a redirect back to the application, or a page (an error or a retry). */
export type ConsentOutcome =
  | { readonly kind: 'redirect'; readonly location: string }
  | { readonly kind: 'page'; readonly status: number; readonly html: string };

export class HeadlessConsentError extends Error {
  constructor(
    readonly code: 'NO_CONSENT_FORM' | 'UNEXPECTED_ANSWER',
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'HeadlessConsentError';
  }
}

/**
 * Plays the fan's part of the authorization-code flow without a browser: opens the authorize URL, reads the login
 * and consent form, and posts the answer with the form's anti-forgery nonce and cookie. For tests of the sandbox
 * and of its clients (the proxy, the extension's background); a real fan uses the page.
 */
export async function answerConsent(
  fetchImpl: (input: string, init?: RequestInit) => Promise<Response>,
  authorizeUrl: string,
  answer: ConsentAnswer,
): Promise<ConsentOutcome> {
  const opened = await fetchImpl(authorizeUrl, { redirect: 'manual' });
  const first = await outcomeOf(opened);
  if (first.kind === 'redirect' || first.status !== 200) return first;

  const authorization = hiddenField(first.html, 'authorization');
  const nonce = hiddenField(first.html, 'nonce');
  if (authorization === undefined || nonce === undefined) {
    throw new HeadlessConsentError('NO_CONSENT_FORM', 'The authorize page has no consent form.');
  }
  const cookie = opened.headers
    .getSetCookie()
    .map((line) => line.split(';', 1)[0] ?? '')
    .filter((pair) => pair.startsWith(oauthChoices.consentCookiePrefix))
    .join('; ');
  const body = new URLSearchParams({ authorization, nonce, decision: answer.decision });
  if (answer.decision === 'allow') {
    body.set('username', answer.username ?? 'alex');
    body.set('password', answer.password ?? demoPassword);
  }
  const posted = await fetchImpl(new URL(oauthChoices.decisionPath, authorizeUrl).toString(), {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: cookie },
    body: body.toString(),
  });
  return outcomeOf(posted);
}

async function outcomeOf(response: Response): Promise<ConsentOutcome> {
  const location = response.headers.get('location');
  if (response.status === 302 && location !== null) return { kind: 'redirect', location };
  if (!(response.headers.get('content-type') ?? '').startsWith('text/html')) {
    throw new HeadlessConsentError('UNEXPECTED_ANSWER', `The OAuth server answered ${response.status}.`);
  }
  return { kind: 'page', status: response.status, html: await response.text() };
}

function hiddenField(html: string, name: string): string | undefined {
  for (const [tag] of html.matchAll(/<input\b[^>]*>/g)) {
    if (!tag.includes(`name="${name}"`)) continue;
    return /\bvalue="([^"]*)"/.exec(tag)?.[1];
  }
  return undefined;
}
