// The cross-site sign-in handoff: the popup's session cookie lands in the proxy site's partition; a card on another
// top-level site redeems the single-use code of the sign-in message for a cookie in its own partition. Without a
// pop-up, the page itself goes to the proxy's login with a `return` address and comes back to it with the same code in
// the fragment: the proxy sends a fan only to an allowed page on the sign-in's own origin, and the code is bound to the
// document that may redeem it.
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
import { cardReturnKey, frameReturnKey, type SignInReturn } from '../../src/contracts/sign-in-return.ts';
import { takeSignInReturn } from '../../src/contracts/sign-in-return-fragment.ts';
import { recordedAuthorizations } from '../../src/sandbox/oauth/oauth-state.ts';
import { answerConsent } from '../../src/sandbox/oauth/headless-consent.ts';

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

  it.each([
    ['the pop-up', async () => (await signedInWithHandoff()).handoff],
    ['a sign-in without a pop-up', () => handoffFor({ origin: pageOrigin, return: pageUrl }, pageUrl)],
  ])(
    'is bound to the origin that started the sign-in (%s): another allowed page spends it and gets nothing',
    async (_way, codeOf) => {
      const handoff = await codeOf();
      const other = await redeem(handoff, { origin: otherPageOrigin });
      expect(other.status).toBe(403);
      expect(await errorCode(other)).toBe('origin_not_allowed');
      expect(other.headers.getSetCookie()).toEqual([]);
      expect(await errorCode(await redeem(handoff))).toBe('invalid_handoff');
    },
  );

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

/** A sign-in without a pop-up: the page's own address, with a query, to come back to. */
const pageUrl = `${pageOrigin}/match/12?tab=poll&utm_source=app`;
const tracking = { referrer: 'matchday-live', campaign: 'spring-derby', param1: 'website' };

const proxyOrigin = (): string => new URL(harness.proxy.url).origin;

function login(query: Record<string, string>): ReturnType<Harness['call']> {
  return harness.call(`${proxyRoutes.signIn}?${new URLSearchParams(query).toString()}`, { origin: null });
}

/** The whole trip as the fan's browser makes it from the page: login, consent, callback. */
async function signInAndComeBack(
  query: Record<string, string>,
  decision: 'allow' | 'deny' = 'allow',
): Promise<{ status: number; location: string | null; loginLocation: string }> {
  const start = await login(query);
  const loginLocation = start.headers.get('location');
  if (start.status !== 302 || loginLocation === null) throw new Error(`Login answered ${start.status}.`);
  const outcome = await answerConsent((input, init) => fetch(input, init), loginLocation, {
    decision,
    username: 'sam',
  });
  if (outcome.kind !== 'redirect') throw new Error(`Consent answered a page (${outcome.status}).`);
  const callback = new URL(outcome.location);
  const cookie = sessionCookieOf(start);
  const back = await harness.call(`${callback.pathname}${callback.search}`, {
    origin: null,
    ...(cookie === undefined ? {} : { cookie }),
  });
  return { status: back.status, location: await wayBackOf(back), loginLocation };
}

/**
 * Where the callback's page sends the browser (its one script's target; its link, without script, the same), when the
 * callback answered that page and no redirect.
 */
async function wayBackOf(answer: Response): Promise<string | null> {
  expect(answer.headers.get('location')).toBeNull();
  const html = await answer.text();
  const block = /<script type="application\/json" id="sign-in-return">([^<]*)<\/script>/.exec(html)?.[1];
  if (block === undefined) return null;
  const { target } = JSON.parse(block) as { target: string };
  const link = /<a href="([^"]*)">/.exec(html)?.[1]?.replaceAll('&amp;', '&');
  expect(link).toBe(target);
  expect(answer.headers.get('referrer-policy')).toBe('no-referrer');
  expect(answer.headers.get('cache-control')).toContain('no-store');
  expect(answer.headers.get('content-security-policy')).toMatch(
    /default-src 'none'; script-src 'nonce-[\w-]+'/,
  );
  return target;
}

/** The marker the callback put in the fragment of `location`, which must otherwise be exactly `page`. */
function markerOf(location: string | null, page: string, key = cardReturnKey): SignInReturn {
  const url = new URL(location ?? '');
  const taken = takeSignInReturn(url.hash, key);
  if (taken === undefined) throw new Error(`No ${key} marker in ${location ?? 'no location'}.`);
  url.hash = taken.rest;
  expect(url.href).toBe(page);
  return taken.result;
}

async function handoffFor(query: Record<string, string>, page: string, key = cardReturnKey): Promise<string> {
  const back = await signInAndComeBack(query);
  expect(back.status).toBe(200);
  const result = markerOf(back.location, page, key);
  if (!('handoff' in result)) throw new Error(`The sign-in came back with ${result.error}.`);
  return result.handoff;
}

describe('sign-in without a pop-up', () => {
  it.each([
    ['another allowed origin than `origin`', pageOrigin, `${otherPageOrigin}/match`],
    ['an origin off the list', 'https://evil.example', 'https://evil.example/match'],
    ['a look-alike origin', pageOrigin, 'http://127.0.0.1:49990/match'],
    ['javascript:', pageOrigin, 'javascript:alert(document.cookie)'],
    ['a protocol-relative address', pageOrigin, '//evil.example/match'],
    ['a backslashed protocol-relative address', pageOrigin, '/\\evil.example/match'],
    ['a relative address', pageOrigin, '/match'],
    ['credentials in the address', pageOrigin, 'http://fan:secret@127.0.0.1:4999/match'],
    ['a data: address', pageOrigin, 'data:text/html,<script>alert(1)</script>'],
    ['an address too long', pageOrigin, `${pageOrigin}/?${'a'.repeat(2100)}`],
  ])('refuses a return to %s, on its own page, with no redirect', async (_case, origin, returnTo) => {
    const before = recordedAuthorizations(harness.sandbox.sandbox.state).length;
    const answer = await login({ origin, return: returnTo, ...tracking });
    expect(answer.status).toBe(400);
    expect(answer.headers.get('location')).toBeNull();
    const { result, openerOrigin } = callbackResultOf(await answer.text());
    expect(result).toMatchObject({ ok: false });
    // No message to any page, no sign-in started.
    expect(openerOrigin).toBeNull();
    expect(sessionCookieOf(answer)).toBeUndefined();
    expect(recordedAuthorizations(harness.sandbox.sandbox.state)).toHaveLength(before);
  });

  it('refuses a banner frame origin off the list, and a frame without a return', async () => {
    const queries: Record<string, string>[] = [
      { origin: pageOrigin, return: pageUrl, frame: 'https://evil.example' },
      { origin: pageOrigin, frame: proxyOrigin() },
    ];
    for (const query of queries) {
      const answer = await login(query);
      expect(answer.status).toBe(400);
      expect(answer.headers.get('location')).toBeNull();
      expect(callbackResultOf(await answer.text()).result).toMatchObject({ error: 'return_not_allowed' });
    }
  });

  it('comes back to exactly the return address plus the code in the fragment, the tracking sent on', async () => {
    const page = `${pageUrl}#comments`;
    const back = await signInAndComeBack({ origin: pageOrigin, return: page, ...tracking });
    expect(back.status).toBe(200);
    const location = back.location ?? '';
    expect(location.startsWith(`${page}&${cardReturnKey}=`)).toBe(true);
    const result = markerOf(location, page);
    if (!('handoff' in result)) throw new Error('No code.');
    expect(result.handoff).toMatch(/^[\w-]{43}$/);
    expect(location).not.toContain(canaryTokenPrefix);
    // The tracking parameters reached the platform's authorize request, as from the pop-up.
    expect(new URL(back.loginLocation).searchParams.get('campaign')).toBe('spring-derby');
    expect(recordedAuthorizations(harness.sandbox.sandbox.state).at(-1)).toMatchObject({
      tracking,
      outcome: 'allowed',
    });

    const redeemed = await redeem(result.handoff);
    expect(redeemed.status).toBe(200);
    expect((await redeemed.json()) as SessionStatus).toEqual({ signedIn: true, userId: samUserId });
    const cookie = sessionCookieOf(redeemed)!;
    expect((await harness.call('/api/user/me', { cookie, headers: fanHeaders })).status).toBe(200);
  });

  it('comes back to a page without a fragment with the code as the only fragment', async () => {
    const back = await signInAndComeBack({ origin: pageOrigin, return: pageUrl });
    expect(back.location?.startsWith(`${pageUrl}#${cardReturnKey}=`)).toBe(true);
  });

  it('refuses a replayed code', async () => {
    const handoff = await handoffFor({ origin: pageOrigin, return: pageUrl }, pageUrl);
    expect((await redeem(handoff)).status).toBe(200);
    const again = await redeem(handoff);
    expect(again.status).toBe(400);
    expect(await errorCode(again)).toBe('invalid_handoff');
    expect(again.headers.getSetCookie()).toEqual([]);
  });

  it('refuses a code once it expired (60 s)', async () => {
    const handoff = await handoffFor({ origin: pageOrigin, return: pageUrl }, pageUrl);
    clockOffsetMs += 61_000;
    try {
      const late = await redeem(handoff);
      expect(late.status).toBe(400);
      expect(await errorCode(late)).toBe('invalid_handoff');
      expect(late.headers.getSetCookie()).toEqual([]);
    } finally {
      clockOffsetMs -= 61_000;
    }
  });

  it('gives a banner’s code under the frame key, bound to its frame’s origin, not the page’s', async () => {
    const query = { origin: pageOrigin, return: pageUrl, frame: proxyOrigin() };
    const forPage = await handoffFor(query, pageUrl, frameReturnKey);
    expect((await redeem(forPage, { origin: pageOrigin })).status).toBe(403);
    const forFrame = await handoffFor(query, pageUrl, frameReturnKey);
    const redeemed = await redeem(forFrame, { origin: proxyOrigin() });
    expect(redeemed.status).toBe(200);
    expect((await redeemed.json()) as SessionStatus).toEqual({ signedIn: true, userId: samUserId });
  });

  it('comes back with the error in the fragment when the fan says no, and no code', async () => {
    const back = await signInAndComeBack({ origin: pageOrigin, return: pageUrl }, 'deny');
    expect(back.status).toBe(200);
    expect(back.location).toBe(`${pageUrl}#${cardReturnKey}-error=access_denied`);
    expect(markerOf(back.location, pageUrl)).toEqual({ error: 'access_denied' });
  });

  it('comes back with an error when the callback is not this browser’s (no code)', async () => {
    const start = await login({ origin: pageOrigin, return: pageUrl });
    const outcome = await answerConsent((input, init) => fetch(input, init), start.headers.get('location')!, {
      decision: 'allow',
      username: 'sam',
    });
    if (outcome.kind !== 'redirect') throw new Error('No redirect from the consent page.');
    const callback = new URL(outcome.location);
    // No cookie of the browser that started it: another browser, or one that lost its cookie on the way.
    const back = await harness.call(`${callback.pathname}${callback.search}`, { origin: null });
    expect(back.status).toBe(400);
    expect(await wayBackOf(back)).toBe(`${pageUrl}#${cardReturnKey}-error=sign_in_expired`);
  });
});
