// On the loopback sandbox the proxy is plain http, where WebKit drops every `Secure` cookie: the proxy then also
// keeps the session in an HttpOnly SameSite=Lax cookie that WebKit keeps, and reads either. Over https it never does.
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionStatus } from '../../src/contracts/proxy-contract.ts';
import { plainHttpSessionCookieName, sessionCookieName } from '../../src/proxy/session-cookie.ts';
import {
  callbackResultOf,
  fanHeaders,
  pageOrigin,
  signIn,
  startHarness,
  type Harness,
} from './proxy-harness.ts';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

/** The Set-Cookie line for `name` in a response. */
function setCookieLine(response: Response, name: string): string | undefined {
  return response.headers.getSetCookie().find((line) => line.startsWith(`${name}=`));
}

describe('the session cookie on a plain-http proxy (the loopback sandbox)', () => {
  it('is also set as an HttpOnly SameSite=Lax cookie without Secure, which alone keeps the fan signed in', async () => {
    harness = await startHarness();
    const login = await harness.call(`/auth/login?origin=${encodeURIComponent(pageOrigin)}`, {
      origin: null,
    });
    const plain = setCookieLine(login, plainHttpSessionCookieName);
    expect(plain).toMatch(/; HttpOnly/);
    expect(plain).toMatch(/; SameSite=Lax/);
    expect(plain).not.toMatch(/Secure/);
    expect(setCookieLine(login, sessionCookieName)).toMatch(/; Secure/);

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
    expect(setCookieLine(signedOut, plainHttpSessionCookieName)).toMatch(/Max-Age=0/);
    const after = (await (
      await harness.call('/auth/session', { cookie: webkitCookie })
    ).json()) as SessionStatus;
    expect(after.signedIn).toBe(false);
  });

  it('is left out of answers to fetches a browser would refuse it from: another site’s page, the proxy’s own frames', async () => {
    harness = await startHarness();
    const redeem = async (site: string) => {
      const { page } = await signIn(harness!, { handoff: true });
      const signedIn = callbackResultOf(page).result;
      return harness!.call('/auth/handoff', {
        method: 'POST',
        headers: {
          ...fanHeaders,
          'Content-Type': 'application/json',
          'Sec-Fetch-Mode': 'cors',
          'Sec-Fetch-Site': site,
        },
        body: JSON.stringify({ handoff: signedIn.ok ? signedIn.handoff : undefined }),
      });
    };
    // A page on the proxy's site redeeming its sign-in (no pop-up, WebKit on http): the Lax cookie is its session.
    const sameSite = await redeem('same-site');
    expect(sameSite.status).toBe(200);
    expect(setCookieLine(sameSite, plainHttpSessionCookieName)).toMatch(/; SameSite=Lax/);
    // Another site's page, or a frame of the proxy's origin (which may sit on another site): the Secure cookie only.
    for (const site of ['cross-site', 'same-origin']) {
      const answer = await redeem(site);
      expect(answer.status).toBe(200);
      expect(setCookieLine(answer, sessionCookieName)).toMatch(/; Partitioned/);
      expect(setCookieLine(answer, plainHttpSessionCookieName)).toBeUndefined();
      const { cookie } = await signIn(harness);
      const signedOut = await harness.call('/auth/logout', {
        method: 'POST',
        cookie: cookie!,
        headers: { ...fanHeaders, 'Sec-Fetch-Mode': 'cors', 'Sec-Fetch-Site': site },
      });
      expect(signedOut.status).toBe(204);
      expect(setCookieLine(signedOut, plainHttpSessionCookieName)).toBeUndefined();
    }
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
