// On the loopback sandbox the proxy is plain http, where WebKit drops every `Secure` cookie: the proxy then also
// keeps the session in an HttpOnly SameSite=Lax cookie that WebKit keeps, and reads either. Over https it never does.
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionStatus } from '../../src/contracts/proxy-contract.ts';
import { plainHttpSessionCookieName, sessionCookieName } from '../../src/proxy/session-cookie.ts';
import { pageOrigin, signIn, startHarness, type Harness } from './proxy-harness.ts';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

/** The Set-Cookie line for `name` in a response. */
function setCookieLine(response: Response, name: string): string | undefined {
  return response.headers.getSetCookie().find((line) => line.startsWith(`${name}=`));
}

/**
 * The Set-Cookie lines of a GET sent as a browser's navigation, with its Fetch metadata (`fetch` sets its own
 * `Sec-Fetch-Mode: cors` and cannot send these).
 */
async function navigate(url: string): Promise<string[]> {
  const answer = await request(url, {
    headers: { 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document', 'sec-fetch-site': 'cross-site' },
  });
  await answer.body.dump();
  const lines = answer.headers['set-cookie'];
  return typeof lines === 'string' ? [lines] : (lines ?? []);
}

describe('the session cookie on a plain-http proxy (the loopback sandbox)', () => {
  it('is also set as an HttpOnly SameSite=Lax cookie without Secure, which alone keeps the fan signed in', async () => {
    harness = await startHarness();
    // The sign-in starts with a navigation (the pop-up's, or the whole page's), where a browser keeps a Lax cookie.
    const login = await navigate(`${harness.proxy.url}/auth/login?origin=${encodeURIComponent(pageOrigin)}`);
    const plain = login.find((line) => line.startsWith(`${plainHttpSessionCookieName}=`));
    expect(plain).toMatch(/; HttpOnly/);
    expect(plain).toMatch(/; SameSite=Lax/);
    expect(plain).not.toMatch(/Secure/);
    expect(login.find((line) => line.startsWith(`${sessionCookieName}=`))).toMatch(/; Secure/);

    const { cookie } = await signIn(harness);
    // What WebKit keeps on http: only the Lax cookie, with the same signed id.
    const webkitCookie = `${plainHttpSessionCookieName}=${cookie!.slice(cookie!.indexOf('=') + 1)}`;
    const status = (await (
      await harness.call('/auth/session', { cookie: webkitCookie })
    ).json()) as SessionStatus;
    expect(status.signedIn).toBe(true);

    const signedOut = await harness.call('/auth/logout', {
      method: 'POST',
      cookie: webkitCookie,
      headers: { 'x-fan-polls-request': '1' },
    });
    // Signed out by a request from a page (a fetch), in whose answer the browser may refuse a Lax cookie: the
    // session ends at the proxy, so the cookie it still holds names nothing.
    expect(signedOut.status).toBe(204);
    const after = (await (
      await harness.call('/auth/session', { cookie: webkitCookie })
    ).json()) as SessionStatus;
    expect(after.signedIn).toBe(false);
  });

  it('is offered on navigations only, never in the answer to a request made inside a page', async () => {
    harness = await startHarness();
    const fromPage = await harness.call(`/auth/login?origin=${encodeURIComponent(pageOrigin)}`, {
      origin: null,
      headers: { 'sec-fetch-mode': 'cors', 'sec-fetch-site': 'same-origin' },
    });
    expect(setCookieLine(fromPage, plainHttpSessionCookieName)).toBeUndefined();
    expect(setCookieLine(fromPage, sessionCookieName)).toBeDefined();
  });

  it('is never set, nor read, when the proxy is served over https', async () => {
    harness = await startHarness({ publicUrl: 'https://polls.example.org' });
    const login = await harness.call(`/auth/login?origin=${encodeURIComponent(pageOrigin)}`, {
      origin: null,
    });
    expect(setCookieLine(login, sessionCookieName)).toBeDefined();
    expect(setCookieLine(login, plainHttpSessionCookieName)).toBeUndefined();
  });
});
