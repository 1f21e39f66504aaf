import type { Context } from 'hono';
import type { SignInResultMessage } from '../contracts/proxy-contract.ts';
import type { SignInReturn } from '../contracts/sign-in-return.ts';
import { withSignInReturn } from '../contracts/sign-in-return-fragment.ts';
import { PlatformError } from '../platform/errors.ts';
import type { ProxyError } from './errors.ts';
import { renderCallbackPage } from './callback-page.ts';
import { renderReturnPage } from './return-page.ts';
import type { ProxyRuntime } from './runtime.ts';

export type SignInPageStatus = 200 | 400 | 429 | 502 | 503;

/**
 * How a sign-in popup ends: a page that says what happened and, when the card's origin is known, posts the result
 * to exactly that origin (`callback-page.ts`).
 */
export function signInEndPage(
  c: Context,
  status: SignInPageStatus,
  result: SignInResultMessage,
  origin?: string,
): Response {
  const page = renderCallbackPage(result, origin);
  for (const [name, value] of Object.entries(page.headers)) c.header(name, value);
  return c.body(page.html, status);
}

/**
 * How a sign-in without a pop-up ends: a page that sends the browser on to exactly the page it came from (`returnUrl`,
 * checked when it started), with `result` as the marker in the fragment under `key` (`sign-in-return.ts`): never in a
 * query, so no server log holds the code (`return-page.ts` says why a page and not a redirect).
 */
export function signInReturnPage(
  c: Context,
  status: SignInPageStatus,
  returnUrl: string,
  key: string,
  result: SignInReturn,
): Response {
  const page = renderReturnPage(withSignInReturn(returnUrl, key, result));
  for (const [name, value] of Object.entries(page.headers)) c.header(name, value);
  return c.body(page.html, status);
}

export function signInFailure(error: string, message: string): SignInResultMessage {
  return { type: 'fan-polls:sign-in', ok: false, error, message };
}

/** The sign-in limit per client address: a 429 page (with `Retry-After`) when spent, else undefined. */
export async function signInRateLimited(
  runtime: ProxyRuntime,
  c: Context,
  origin: string | undefined,
): Promise<Response | undefined> {
  const retryAfter = await runtime.signInLimiter.take(runtime.clientAddress(c));
  if (retryAfter === undefined) return undefined;
  c.header('Retry-After', String(retryAfter));
  return signInEndPage(
    c,
    429,
    signInFailure('rate_limited', 'Too many sign-in attempts. Wait a minute and try again.'),
    origin,
  );
}

/** What a callback that failed on the platform's side tells the card. */
export function callbackFailure(error: unknown): { status: SignInPageStatus; result: SignInResultMessage } {
  const fail = (status: SignInPageStatus, code: string, message: string) => ({
    status,
    result: signInFailure(code, message),
  });
  if (error instanceof PlatformError) {
    switch (error.code) {
      case 'access_denied':
        return fail(200, 'access_denied', 'You did not allow Fan Polls to use your account.');
      case 'invalid_input':
        return fail(
          400,
          'invalid_request',
          'The platform sent back an answer that does not match this sign-in.',
        );
      case 'oauth_error':
        return fail(502, 'sign_in_failed', 'The platform refused the sign-in.');
      case 'throttled':
        return fail(429, 'rate_limited', 'The platform is busy. Try again in a minute.');
      default:
        return fail(502, 'platform_unavailable', 'The platform did not answer. Try again shortly.');
    }
  }
  return fail(502, 'sign_in_failed', 'Sign-in failed. Try again shortly.');
}

/**
 * A popup whose sign-in met a proxy error it can wait out (the shared state unavailable: 503 with `Retry-After`) ends
 * on a page that says so, never on the JSON a card's fetch gets. The result goes to the card's origin when that origin
 * is one the proxy serves.
 */
export function signInUnavailablePage(
  c: Context,
  error: ProxyError,
  origin: string | undefined,
): Response | undefined {
  if (error.status !== 503) return undefined;
  if (error.retryAfterSeconds !== undefined) c.header('Retry-After', String(error.retryAfterSeconds));
  c.header('Cache-Control', 'no-store');
  return signInEndPage(c, 503, signInFailure(error.code, error.message), origin);
}
