/**
 * A fact this page keeps about a browser: it refused a proxy's cookie on this page's site, so a card here signs in
 * through a session frame from its first tap (`proxy-channel.ts`). Only the proxy's origin is kept, never a credential.
 * Storage may be refused too (a sandboxed or private page): then the card finds out again.
 */
const refusalKey = 'fan-polls:cookie-refused';

/**
 * The cause of a `cookies-blocked` on a page of another origin than the proxy's, after which the card's next sign-in
 * goes to a session frame of the proxy's origin (`frame-session-host.ts`): the card's words say to sign in again.
 */
export const frameSessionOffered = 'frame-session-offered';

function refusedOrigins(): string[] {
  try {
    return (localStorage.getItem(refusalKey) ?? '').split(' ').filter(Boolean);
  } catch {
    return [];
  }
}

export function cookieRefusalRemembered(proxyOrigin: string): boolean {
  return refusedOrigins().includes(proxyOrigin);
}

export function rememberCookieRefusal(proxyOrigin: string): void {
  const known = refusedOrigins();
  if (known.includes(proxyOrigin)) return;
  try {
    localStorage.setItem(refusalKey, [...known, proxyOrigin].slice(-8).join(' '));
  } catch {
    // Not kept: the next visit finds out again.
  }
}
