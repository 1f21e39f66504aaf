// The cross-site sign-in handoff: the popup's session cookie lands in the proxy site's partition; a card on another
// top-level site redeems the single-use code of the sign-in message for a cookie in its own partition.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  ProxyErrorBody,
  SessionStatus,
  SignInResultMessage,
} from '../../src/contracts/proxy-contract.ts';
import { proxyRoutes } from '../../src/contracts/proxy-contract.ts';
import {
  callbackResultOf,
  fanHeaders,
  pageOrigin,
  sessionCookieOf,
  sessionIdOf,
  signIn,
  startHarness,
  type Harness,
} from './proxy-harness.ts';
import { canaryTokenPrefix } from '../support/canary.ts';

/** Another partner page on the allowlist (e.g. the media site that embeds the banner). */
const otherPageOrigin = 'http://127.0.0.1:4998';
const samUserId = '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c02';
const alexUserId = '0f8c2a4e-6b1d-4e3f-9a5c-7d2e4f6a8b01';

let harness: Harness;
let clockOffsetMs = 0;
beforeAll(async () => {
  harness = await startHarness(
    { allowedOrigins: [pageOrigin, otherPageOrigin], signInPerMinute: 10_000 },
    { now: () => Date.now() + clockOffsetMs },
  );
});
afterAll(async () => {
  await harness.close();
});

const errorCode = async (response: Response) => ((await response.json()) as ProxyErrorBody).error.code;

async function signedInWithHandoff(): Promise<{ handoff: string; popupCookie: string; page: string }> {
  const { page, cookie } = await signIn(harness, { username: 'sam', handoff: true });
  const { result } = callbackResultOf(page);
  if (!result.ok || result.handoff === undefined) throw new Error('The sign-in gave no handoff code.');
  return { handoff: result.handoff, popupCookie: cookie!, page };
}

/** The card's request from its own partition: no cookie of the popup's. */
function redeem(
  handoff: unknown,
  options: { origin?: string | null; headers?: Record<string, string> } = {},
): ReturnType<Harness['call']> {
  return harness.call(proxyRoutes.sessionHandoff, {
    method: 'POST',
    origin: options.origin === undefined ? pageOrigin : options.origin,
    headers: options.headers ?? { ...fanHeaders, 'Content-Type': 'application/json' },
    body: JSON.stringify({ handoff }),
  });
}

describe('session handoff', () => {
  it('hands the session to the card’s partition once, with a fresh cookie that works on the fan routes', async () => {
    const { handoff, popupCookie, page } = await signedInWithHandoff();
    expect(handoff).toMatch(/^[\w-]{43}$/);
    expect(page).not.toContain(canaryTokenPrefix);
    expect(popupCookie).not.toContain(handoff);

    const preflight = await harness.call(proxyRoutes.sessionHandoff, {
      method: 'OPTIONS',
      headers: { 'Access-Control-Request-Method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-credentials')).toBe('true');

    const redeemed = await redeem(handoff);
    expect(redeemed.status).toBe(200);
    expect(redeemed.headers.get('access-control-allow-origin')).toBe(pageOrigin);
    expect(redeemed.headers.get('access-control-allow-credentials')).toBe('true');
    expect(redeemed.headers.get('cache-control')).toBe('private, no-store');
    expect((await redeemed.json()) as SessionStatus).toEqual({ signedIn: true, userId: samUserId });
    const line = redeemed.headers
      .getSetCookie()
      .find((value) => value.startsWith('__Host-fan-polls-session='));
    expect(line).toBeDefined();
    for (const attribute of ['HttpOnly', 'Secure', 'SameSite=None', 'Partitioned', 'Path=/']) {
      expect(line).toContain(attribute);
    }
    const cardCookie = sessionCookieOf(redeemed)!;
    expect(cardCookie).not.toBe(popupCookie);
    expect(await redeemed.text()).not.toContain(canaryTokenPrefix);

    const me = await harness.call('/api/user/me', { cookie: cardCookie, headers: fanHeaders });
    expect(me.status).toBe(200);
    // The popup's own partition keeps its session too.
    expect((await harness.call('/api/user/me', { cookie: popupCookie, headers: fanHeaders })).status).toBe(
      200,
    );

    const again = await redeem(handoff);
    expect(again.status).toBe(400);
    expect(await errorCode(again)).toBe('invalid_handoff');
    expect(again.headers.getSetCookie()).toEqual([]);
  });

  it('expires after 60 seconds', async () => {
    const { handoff } = await signedInWithHandoff();
    clockOffsetMs += 61_000;
    try {
      const late = await redeem(handoff);
      expect(late.status).toBe(400);
      expect(await errorCode(late)).toBe('invalid_handoff');
    } finally {
      clockOffsetMs -= 61_000;
    }
    const { handoff: fresh } = await signedInWithHandoff();
    clockOffsetMs += 50_000;
    try {
      expect((await redeem(fresh)).status).toBe(200);
    } finally {
      clockOffsetMs -= 50_000;
    }
  });

  it('is bound to the origin that started the sign-in: another allowed page spends it and gets nothing', async () => {
    const { handoff } = await signedInWithHandoff();
    const other = await redeem(handoff, { origin: otherPageOrigin });
    expect(other.status).toBe(403);
    expect(await errorCode(other)).toBe('origin_not_allowed');
    expect(other.headers.getSetCookie()).toEqual([]);
    expect(await errorCode(await redeem(handoff))).toBe('invalid_handoff');
  });

  it('is refused from an origin off the list, with no Origin, or without the CSRF header, and stays unspent', async () => {
    const { handoff } = await signedInWithHandoff();
    const evil = await redeem(handoff, { origin: 'https://evil.example' });
    expect(evil.status).toBe(403);
    expect(await errorCode(evil)).toBe('origin_not_allowed');
    expect(evil.headers.get('access-control-allow-origin')).toBeNull();
    const evilPreflight = await harness.call(proxyRoutes.sessionHandoff, {
      method: 'OPTIONS',
      origin: 'https://evil.example',
      headers: { 'Access-Control-Request-Method': 'POST' },
    });
    expect(evilPreflight.status).toBe(403);

    const noOrigin = await redeem(handoff, {
      origin: null,
      headers: { ...fanHeaders, 'Content-Type': 'application/json', 'Sec-Fetch-Site': 'same-origin' },
    });
    expect(await errorCode(noOrigin)).toBe('origin_not_allowed');

    const noHeader = await redeem(handoff, { headers: { 'Content-Type': 'application/json' } });
    expect(noHeader.status).toBe(403);
    expect(await errorCode(noHeader)).toBe('csrf_header_missing');

    for (const refused of [evil, noOrigin, noHeader]) expect(refused.headers.getSetCookie()).toEqual([]);
    expect((await redeem(handoff)).status).toBe(200);
  });

  it('refuses a malformed or unknown code, and a code whose session has signed out', async () => {
    expect(await errorCode(await redeem(42))).toBe('invalid_body');
    expect(await errorCode(await redeem('x'.repeat(500)))).toBe('invalid_body');
    expect(await errorCode(await redeem('never-issued'))).toBe('invalid_handoff');

    const { handoff, popupCookie } = await signedInWithHandoff();
    const out = await harness.call('/auth/logout', {
      method: 'POST',
      cookie: popupCookie,
      headers: fanHeaders,
    });
    expect(out.status).toBe(204);
    expect(await errorCode(await redeem(handoff))).toBe('invalid_handoff');
  });

  it('ends both partitions’ sessions when the fan signs out in the card', async () => {
    const { handoff, popupCookie } = await signedInWithHandoff();
    const cardCookie = sessionCookieOf(await redeem(handoff))!;
    const out = await harness.call('/auth/logout', {
      method: 'POST',
      cookie: cardCookie,
      headers: fanHeaders,
    });
    expect(out.status).toBe(204);
    for (const cookie of [cardCookie, popupCookie]) {
      const status = (await (await harness.call('/auth/session', { cookie })).json()) as SessionStatus;
      expect(status).toEqual({ signedIn: false });
    }
  });

  it('ends the old fan’s tokens when another fan signs in over the session: revoked upstream, and its copies end', async () => {
    const { handoff, popupCookie } = await signedInWithHandoff();
    const cardCookie = sessionCookieOf(await redeem(handoff))!;
    const old = (await harness.proxy.proxy.runtime.sessions.find(sessionIdOf(popupCookie)))?.tokens.tokens;
    if (old?.refreshToken === undefined) throw new Error('The first sign-in left no token pair.');
    const revokedBefore = harness.upstream.length;

    const again = await signIn(harness, { username: 'alex', cookie: popupCookie });
    expect(callbackResultOf(again.page).result).toMatchObject({ ok: true, userId: alexUserId });
    const revoked = harness.upstream.slice(revokedBefore).flatMap((call) => call.revoked ?? []);
    expect(revoked.sort()).toEqual([old.accessToken, old.refreshToken].sort());
    const meWithOldToken = await fetch(`${harness.sandbox.apiUrl}/user/1.0.0/user/me`, {
      headers: { Authorization: `Bearer ${old.accessToken}` },
    });
    expect(meWithOldToken.status).toBe(401);

    // The card's copy was sam's: it ends with sam's tokens rather than carrying on as sam.
    const card = (await (
      await harness.call('/auth/session', { cookie: cardCookie })
    ).json()) as SessionStatus;
    expect(card).toEqual({ signedIn: false });
    const cardMe = await harness.call('/api/user/me', { cookie: cardCookie, headers: fanHeaders });
    expect(await errorCode(cardMe)).toBe('not_signed_in');
    // The popup's partition is alex now, on a fresh session id.
    expect(again.cookie).not.toBe(popupCookie);
    const popup = (await (
      await harness.call('/auth/session', { cookie: again.cookie! })
    ).json()) as SessionStatus;
    expect(popup).toEqual({ signedIn: true, userId: alexUserId });
  });

  it('gives no handoff code unless the card asked for one, nor on a failed sign-in', async () => {
    // A card that does not know the field keeps getting exactly the message it knows.
    const plain = callbackResultOf((await signIn(harness, { username: 'sam' })).page).result;
    expect(plain).toEqual({ type: 'fan-polls:sign-in', ok: true, userId: samUserId });
    const { page } = await signIn(harness, { decision: 'deny', handoff: true });
    const { result } = callbackResultOf(page);
    expect(result.ok).toBe(false);
    expect(Object.keys(result)).not.toContain('handoff');
  });

  it('never puts a token in a message, an answer or a log line', async () => {
    const ok = callbackResultOf((await signedInWithHandoff()).page).result;
    expect(Object.keys(ok).sort()).toEqual(['handoff', 'ok', 'type', 'userId'] satisfies (keyof Extract<
      SignInResultMessage,
      { ok: true }
    >)[]);
    for (const answer of harness.answers) expect(answer.body).not.toContain(canaryTokenPrefix);
    for (const line of harness.logLines)
      expect(line).not.toMatch(new RegExp(`${canaryTokenPrefix}|[\\w-]{43}`));
  });
});
