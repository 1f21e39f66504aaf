// On the loopback sandbox the proxy is plain http, where WebKit drops every `Secure` cookie: the proxy then also
// keeps the session in an HttpOnly SameSite=Lax cookie that WebKit keeps, and reads either. Over https it never does.
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

  it('is never set, nor read, when the proxy is served over https', async () => {
    harness = await startHarness({ publicUrl: 'https://polls.example.org' });
    const login = await harness.call(`/auth/login?origin=${encodeURIComponent(pageOrigin)}`, {
      origin: null,
    });
    expect(setCookieLine(login, sessionCookieName)).toBeDefined();
    expect(setCookieLine(login, plainHttpSessionCookieName)).toBeUndefined();
  });
});
