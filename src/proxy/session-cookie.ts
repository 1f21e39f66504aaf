import type { Context } from 'hono';
import { deleteCookie, getSignedCookie, setSignedCookie } from 'hono/cookie';

/**
 * The session cookie: an opaque id signed with the session secret (HMAC-SHA-256). `__Host-` pins it to this host
 * and path `/`; HttpOnly keeps it from scripts; Secure + SameSite=None lets a card in a third-party iframe send it;
 * Partitioned (CHIPS) keeps it in the embedding site's partition, so it works where third-party cookies are blocked.
 * Chromium treats http://127.0.0.1 and http://localhost as potentially trustworthy, so Secure cookies also work on
 * the loopback sandbox.
 */
export const sessionCookieName = '__Host-fan-polls-session';

export async function readSessionId(c: Context, secret: string): Promise<string | undefined> {
  const value = await getSignedCookie(c, secret, sessionCookieName);
  return typeof value === 'string' && value !== '' ? value : undefined;
}

export async function writeSessionCookie(
  c: Context,
  secret: string,
  sessionId: string,
  maxAgeSeconds: number,
): Promise<void> {
  await setSignedCookie(c, sessionCookieName, sessionId, secret, {
    path: '/',
    httpOnly: true,
    secure: true,
    sameSite: 'None',
    partitioned: true,
    maxAge: maxAgeSeconds,
  });
}

export function clearSessionCookie(c: Context): void {
  deleteCookie(c, sessionCookieName, {
    path: '/',
    secure: true,
    httpOnly: true,
    sameSite: 'None',
    partitioned: true,
  });
}
