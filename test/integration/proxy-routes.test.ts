// Every route of the partner proxy, against the sandbox as a real server over sockets.
import { openRiversidePoll } from '../support/open-poll.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extensionRedirectUri, firefoxExtensionRedirectUri } from '../../src/local-defaults.ts';
import type { ExtensionTokenSet, ProxyErrorBody, SessionStatus } from '../../src/contracts/proxy-contract.ts';
import type { Poll } from '../../src/platform/types.ts';
import { createJsonLogger } from '../../src/proxy/logger.ts';
import { serveProxy } from '../../src/proxy/serve.ts';
import { answerConsent } from '../../src/sandbox/oauth/headless-consent.ts';
import {
  callbackResultOf,
  castVote,
  canaryApplication,
  extensionCode,
  extensionOrigin,
  fanHeaders,
  pageOrigin,
  signIn,
  startHarness,
  type Harness,
} from './proxy-harness.ts';

let harness: Harness;
beforeAll(async () => {
  // Only the listed page: loopback origins stand in for other sites below (proxy-loopback-origins tests the default).
  harness = await startHarness({ allowLoopbackOrigins: false });
});
afterAll(async () => {
  await harness.close();
});

const errorCode = async (response: Response) => ((await response.json()) as ProxyErrorBody).error.code;

const openPollOfRiverside = (polls: readonly Poll[], now = Date.now()): Poll =>
  openRiversidePoll(polls, { now });

describe('public reads', () => {
  it('lists polls with CDN headers, an ETag and CORS for the allowed page', async () => {
    const response = await harness.call('/api/polls');
    expect(response.status).toBe(200);
    const body = (await response.json()) as { data: Poll[] };
    expect(body.data.length).toBeGreaterThan(0);
    // Browsers always revalidate and never show a stale body; only a shared cache or a CDN keeps it.
    expect(response.headers.get('cache-control')).toBe('public, max-age=0, must-revalidate, s-maxage=5');
    expect(response.headers.get('cdn-cache-control')).toMatch(/stale-while-revalidate=\d+/);
    expect(response.headers.get('cdn-cache-control')).toMatch(/stale-if-error=\d+/);
    expect(response.headers.get('access-control-allow-origin')).toBe(pageOrigin);
    expect(response.headers.get('access-control-allow-credentials')).toBeNull();
    expect(response.headers.get('vary')).toContain('Origin');
    const etag = response.headers.get('etag');
    expect(etag).toMatch(/^".+"$/);

    const again = await harness.call('/api/polls', { headers: { 'If-None-Match': etag! } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
  });

  it('reads one poll, and answers 404 and 400 with the error body', async () => {
    const list = (await (await harness.call('/api/polls')).json()) as { data: Poll[] };
    const first = list.data[0]!;
    const one = await harness.call(`/api/polls/${first.id}`);
    expect(one.status).toBe(200);
    expect(((await one.json()) as { data: Poll }).data.id).toBe(first.id);

    const missing = await harness.call('/api/polls/00000000-0000-4000-8000-000000000000');
    expect(missing.status).toBe(404);
    expect(await errorCode(missing)).toBe('not_found');

    const bad = await harness.call('/api/polls/not-a-uuid');
    expect(bad.status).toBe(400);
    expect(await errorCode(bad)).toBe('invalid_filter');
  });

  it('checks filters and shares one cache entry between equal queries in any order', async () => {
    const bad = await harness.call('/api/polls?bound=maybe');
    expect(bad.status).toBe(400);
    expect(await errorCode(bad)).toBe('invalid_filter');
    expect(await errorCode(await harness.call('/api/polls?evil=1'))).toBe('invalid_filter');

    const a = '7d9e1f20-3a4b-4c5d-8e6f-7a8b9c0d1e22';
    const b = '11111111-2222-4333-8444-555555555555';
    const before = harness.upstream.filter((call) => call.url.pathname.endsWith('/polls')).length;
    const first = await harness.call(`/api/polls?partnerIds[]=${a}&bound=false&partnerIds[]=${b}`);
    const second = await harness.call(
      `/api/polls?bound=false&partnerIds[]=${b.toUpperCase()}&partnerIds[]=${a}`,
    );
    expect(first.status).toBe(200);
    expect(second.headers.get('etag')).toBe(first.headers.get('etag'));
    const after = harness.upstream.filter((call) => call.url.pathname.endsWith('/polls')).length;
    expect(after - before).toBe(1);
  });

  it('gives no CORS grant to an origin off the list and refuses its preflight', async () => {
    const response = await harness.call('/api/polls', { origin: 'https://evil.example' });
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await harness.call('/api/polls', {
      method: 'OPTIONS',
      origin: 'https://evil.example',
      headers: { 'Access-Control-Request-Method': 'GET' },
    });
    expect(preflight.status).toBe(403);
    expect(await errorCode(preflight)).toBe('origin_not_allowed');
    const allowed = await harness.call('/api/user/me', {
      method: 'OPTIONS',
      headers: {
        'Access-Control-Request-Method': 'GET',
        'Access-Control-Request-Headers': 'x-fan-polls-request',
      },
    });
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get('access-control-allow-credentials')).toBe('true');
    expect(allowed.headers.get('access-control-allow-headers')).toContain('X-Fan-Polls-Request');
  });

  it('answers an unknown route with the error body', async () => {
    const response = await harness.call('/nope');
    expect(response.status).toBe(404);
    expect(await errorCode(response)).toBe('not_found');
  });
});

describe('sign-in for widgets', () => {
  it('sends the fan to authorize with state, PKCE, partner_tag, the callback and the five tracking parameters', async () => {
    const tracking = {
      referrer: 'club-site',
      campaign: 'cup-final',
      param1: 'website',
      param2: 'match',
      param3: 'iframe',
    };
    const { loginLocation } = await signIn(harness, { tracking });
    const authorize = new URL(loginLocation);
    expect(authorize.origin).toBe(harness.sandbox.authUrl);
    expect(authorize.pathname).toBe('/oauth2/authorize');
    const query = authorize.searchParams;
    expect(query.get('response_type')).toBe('code');
    expect(query.get('client_id')).toBe(canaryApplication.clientId);
    expect(query.get('partner_tag')).toBe(canaryApplication.partnerTag);
    expect(query.get('redirect_uri')).toBe(harness.proxy.config.callbackUrl);
    expect(query.get('state')?.length).toBeGreaterThanOrEqual(20);
    expect(query.get('code_challenge_method')).toBe('S256');
    expect(query.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    for (const [name, value] of Object.entries(tracking)) expect(query.get(name)).toBe(value);
  });

  it('ends the popup with a page that posts the result to the exact opener origin, under a nonce CSP', async () => {
    const harnessCall = await signIn(harness, { username: 'sam' });
    expect(harnessCall.status).toBe(200);
    const { result, openerOrigin } = callbackResultOf(harnessCall.page);
    expect(openerOrigin).toBe(pageOrigin);
    expect(result).toEqual({
      type: 'fan-polls:sign-in',
      ok: true,
      userId: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c02',
    });
    expect(harnessCall.page).toContain('window.opener.postMessage(result, openerOrigin)');
    expect(harnessCall.page).toContain('You are signed in');
    const answer = harness.answers.at(-1)!;
    const headers = new Map(JSON.parse(answer.headers) as [string, string][]);
    const csp = headers.get('content-security-policy') ?? '';
    const nonce = /script-src 'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeDefined();
    expect(csp).toContain("default-src 'none'");
    expect(harnessCall.page).toContain(`<script nonce="${nonce}">`);
    expect(headers.get('referrer-policy')).toBe('no-referrer');
    expect(headers.get('cache-control')).toBe('private, no-store');
  });

  it('ends a refusal (access_denied) in a clear state for the card', async () => {
    const refused = await signIn(harness, { decision: 'deny' });
    expect(refused.status).toBe(200);
    const { result, openerOrigin } = callbackResultOf(refused.page);
    expect(openerOrigin).toBe(pageOrigin);
    expect(result).toMatchObject({ ok: false, error: 'access_denied' });
    expect(refused.page).toContain('Sign-in did not finish');
  });

  it('ends an unknown or replayed state in a clear page, and posts to the origin the session started with', async () => {
    const login = await harness.call(`/auth/login?origin=${encodeURIComponent(pageOrigin)}`, {
      origin: null,
    });
    const cookie = login.headers.getSetCookie()[0]!.split(';')[0]!;
    const stale = await harness.call('/auth/callback?code=abc&state=never-issued', { origin: null, cookie });
    expect(stale.status).toBe(400);
    const { result, openerOrigin } = callbackResultOf(await stale.text());
    expect(result).toMatchObject({ ok: false, error: 'sign_in_expired' });
    expect(openerOrigin).toBe(pageOrigin);

    const noCookie = await harness.call('/auth/callback?code=abc&state=never-issued', { origin: null });
    expect(callbackResultOf(await noCookie.text()).openerOrigin).toBeNull();
  });

  it('refuses a callback that comes back in another browser (login CSRF)', async () => {
    const login = await harness.call(`/auth/login?origin=${encodeURIComponent(pageOrigin)}`, {
      origin: null,
    });
    const outcome = await answerConsent((input, init) => fetch(input, init), login.headers.get('location')!, {
      decision: 'allow',
    });
    if (outcome.kind !== 'redirect') throw new Error('no redirect');
    const callback = new URL(outcome.location);
    const otherBrowser = await harness.call(`${callback.pathname}${callback.search}`, { origin: null });
    expect(otherBrowser.status).toBe(400);
    expect(callbackResultOf(await otherBrowser.text()).result).toMatchObject({ error: 'sign_in_expired' });
  });

  it('reports the session, signs out (revoking upstream) and reports it gone', async () => {
    const { cookie } = await signIn(harness, { username: 'alex' });
    const status = await harness.call('/auth/session', { cookie: cookie! });
    expect(status.headers.get('access-control-allow-credentials')).toBe('true');
    expect((await status.json()) as SessionStatus).toEqual({
      signedIn: true,
      userId: '0f8c2a4e-6b1d-4e3f-9a5c-7d2e4f6a8b01',
    });
    expect((await (await harness.call('/auth/session')).json()) as SessionStatus).toEqual({
      signedIn: false,
    });

    const refusedWithoutHeader = await harness.call('/auth/logout', { method: 'POST', cookie: cookie! });
    expect(refusedWithoutHeader.status).toBe(403);

    const revokesBefore = harness.upstream.filter((call) => call.url.pathname === '/oauth2/revoke').length;
    const out = await harness.call('/auth/logout', { method: 'POST', cookie: cookie!, headers: fanHeaders });
    expect(out.status).toBe(204);
    expect(out.headers.getSetCookie().join()).toMatch(/__Host-fan-polls-session=;.*Max-Age=0/);
    expect(
      harness.upstream.filter((call) => call.url.pathname === '/oauth2/revoke').length - revokesBefore,
    ).toBe(2);
    expect(
      (await (await harness.call('/auth/session', { cookie: cookie! })).json()) as SessionStatus,
    ).toEqual({
      signedIn: false,
    });
    const me = await harness.call('/api/user/me', { cookie: cookie!, headers: fanHeaders });
    expect(me.status).toBe(401);
    expect(await errorCode(me)).toBe('not_signed_in');
  });
});

describe('fan routes', () => {
  it('reads the fan, their polls, one poll and history, then votes once and shows it', async () => {
    const { cookie } = await signIn(harness, { username: 'sam' });
    const fan = { cookie: cookie!, headers: fanHeaders };
    const me = await harness.call('/api/user/me', fan);
    expect(me.status).toBe(200);
    expect(me.headers.get('cache-control')).toBe('private, no-store');
    expect(((await me.json()) as { data: { userId: string } }).data.userId).toBe(
      '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c02',
    );

    const polls = await harness.call('/api/user/polls', fan);
    expect(polls.status).toBe(200);
    const userPolls = ((await polls.json()) as { data: Poll[] }).data;
    expect(userPolls.every((poll) => typeof poll.userVote === 'boolean')).toBe(true);
    expect(await errorCode(await harness.call('/api/user/polls?userVoted=perhaps', fan))).toBe(
      'invalid_filter',
    );

    const history = await harness.call('/api/user/polls-history?limit=5', fan);
    expect(history.status).toBe(200);
    expect(await errorCode(await harness.call('/api/user/polls-history?bound=true', fan))).toBe(
      'invalid_filter',
    );

    const publicPolls = ((await (await harness.call('/api/polls')).json()) as { data: Poll[] }).data;
    const poll = openPollOfRiverside(publicPolls);
    const before = await harness.call(`/api/user/polls/${poll.id}`, fan);
    expect(((await before.json()) as { data: Poll }).data.userVote).toBe(false);

    const vote = await castVote(harness, fan.cookie, poll.id, poll.answers[0]!.id);
    expect(vote.status).toBe(201);
    expect(await vote.text()).toBe('');
    const after = await harness.call(`/api/user/polls/${poll.id}`, fan);
    expect(((await after.json()) as { data: Poll }).data.userVote).toBe(true);

    const badBody = await castVote(harness, fan.cookie, poll.id, 'x');
    expect(badBody.status).toBe(400);
  });

  it('refuses a fan route without the CSRF header, from another origin, with no Origin, or with no session', async () => {
    const { cookie } = await signIn(harness);
    const noHeader = await harness.call('/api/user/me', { cookie: cookie! });
    expect(noHeader.status).toBe(403);
    expect(await errorCode(noHeader)).toBe('csrf_header_missing');
    const evil = await harness.call('/api/user/me', {
      cookie: cookie!,
      headers: fanHeaders,
      origin: 'https://evil.example',
    });
    expect(evil.status).toBe(403);
    expect(await errorCode(evil)).toBe('origin_not_allowed');
    expect(evil.headers.get('access-control-allow-origin')).toBeNull();
    const noOrigin = await harness.call('/api/user/me', {
      cookie: cookie!,
      headers: fanHeaders,
      origin: null,
    });
    expect(await errorCode(noOrigin)).toBe('origin_not_allowed');
    const crossSite = { ...fanHeaders, 'Sec-Fetch-Site': 'cross-site' };
    const noOriginCrossSite = await harness.call('/api/user/me', {
      cookie: cookie!,
      headers: crossSite,
      origin: null,
    });
    expect(await errorCode(noOriginCrossSite)).toBe('origin_not_allowed');
    // A page on the proxy's own origin: the browser sends no Origin on a same-origin GET, but Sec-Fetch-Site.
    const sameOrigin = { ...fanHeaders, 'Sec-Fetch-Site': 'same-origin' };
    expect(
      (await harness.call('/api/user/me', { cookie: cookie!, headers: sameOrigin, origin: null })).status,
    ).toBe(200);
    // And its POSTs, which carry its own Origin (not in the partner's list): the banner page signs out or votes.
    const postFromProxyOrigin = (site: Record<string, string>) =>
      harness.call('/api/user/polls/00000000-0000-4000-8000-000000000000/vote', {
        method: 'POST',
        cookie: cookie!,
        headers: { ...site, 'Content-Type': 'application/json' },
        origin: 'http://127.0.0.1:9',
        body: JSON.stringify({ answerId: 'x' }),
      });
    expect(await errorCode(await postFromProxyOrigin(sameOrigin))).not.toBe('origin_not_allowed');
    const crossSitePost = await postFromProxyOrigin(crossSite);
    expect(await errorCode(crossSitePost)).toBe('origin_not_allowed');
    const forged = await harness.call('/api/user/me', {
      cookie: `${cookie!.slice(0, -6)}AAAAAA`,
      headers: fanHeaders,
    });
    expect(await errorCode(forged)).toBe('not_signed_in');
    const vote = await harness.call('/api/user/polls/00000000-0000-4000-8000-000000000000/vote', {
      method: 'POST',
      cookie: cookie!,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'answerId=x',
    });
    expect(vote.status).toBe(403);
  });
});

describe('token mediation for the extension', () => {
  const post = (path: string, body: unknown, origin: string = extensionOrigin) =>
    harness.call(path, {
      method: 'POST',
      origin,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('exchanges a code, refreshes with rotation and revokes, for the extension origin only', async () => {
    const { code, codeVerifier } = await extensionCode(harness);
    const refused = await post(
      '/extension/token',
      { code, codeVerifier, redirectUri: extensionRedirectUri },
      pageOrigin,
    );
    expect(refused.status).toBe(403);
    expect(await errorCode(refused)).toBe('extension_not_allowed');

    const wrongRedirect = await post('/extension/token', {
      code,
      codeVerifier,
      redirectUri: harness.proxy.config.callbackUrl,
    });
    expect(await errorCode(wrongRedirect)).toBe('invalid_redirect_uri');

    const exchanged = await post('/extension/token', {
      code,
      codeVerifier,
      redirectUri: extensionRedirectUri,
    });
    expect(exchanged.status).toBe(200);
    expect(exchanged.headers.get('access-control-allow-origin')).toBe(extensionOrigin);
    expect(exchanged.headers.get('cache-control')).toBe('private, no-store');
    const tokens = (await exchanged.json()) as ExtensionTokenSet;
    expect(tokens.accessToken).toMatch(/^CANARYTOKEN/);
    expect(tokens.expiresIn).toBeGreaterThan(0);

    const refreshed = await post('/extension/refresh', { refreshToken: tokens.refreshToken });
    expect(refreshed.status).toBe(200);
    const next = (await refreshed.json()) as ExtensionTokenSet;
    expect(next.refreshToken).not.toBe(tokens.refreshToken);
    const rotatedAway = await post('/extension/refresh', { refreshToken: tokens.refreshToken });
    expect(await errorCode(rotatedAway)).toBe('invalid_grant');

    const revoked = await post('/extension/revoke', { token: next.refreshToken });
    expect(revoked.status).toBe(204);
    expect(await errorCode(await post('/extension/refresh', { refreshToken: next.refreshToken }))).toBe(
      'invalid_grant',
    );
  });

  it('lets any Firefox install (moz-extension://<uuid>) in on the sandbox preset, for the Firefox redirect only', async () => {
    const firefoxOrigin = 'moz-extension://0b0c3c3e-1111-4222-8333-444455556666';
    expect(harness.proxy.config.acceptAnyFirefoxOrigin).toBe(true);
    const preflight = await harness.call('/extension/token', {
      method: 'OPTIONS',
      origin: firefoxOrigin,
      headers: { 'Access-Control-Request-Method': 'POST' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBe(firefoxOrigin);

    const chromeRedirect = await extensionCode(harness);
    const wrongRedirect = await post(
      '/extension/token',
      { ...chromeRedirect, redirectUri: extensionRedirectUri },
      firefoxOrigin,
    );
    expect(await errorCode(wrongRedirect)).toBe('invalid_redirect_uri');

    const { code, codeVerifier } = await extensionCode(harness, firefoxExtensionRedirectUri);
    const exchanged = await post(
      '/extension/token',
      { code, codeVerifier, redirectUri: firefoxExtensionRedirectUri },
      firefoxOrigin,
    );
    expect(exchanged.status).toBe(200);
    expect(exchanged.headers.get('access-control-allow-origin')).toBe(firefoxOrigin);
    const tokens = (await exchanged.json()) as ExtensionTokenSet;
    const refreshed = await post('/extension/refresh', { refreshToken: tokens.refreshToken }, firefoxOrigin);
    expect(refreshed.status).toBe(200);

    for (const notFirefox of [
      'moz-extension://evil',
      'moz-extension://0B0C3C3E-1111-4222-8333-444455556666',
    ]) {
      const refused = await post('/extension/refresh', { refreshToken: 'x' }, notFirefox);
      expect(await errorCode(refused)).toBe('extension_not_allowed');
    }
  });

  it('lets only listed Firefox installs in when the opt-in is off (the production default)', async () => {
    const listed = 'moz-extension://0b0c3c3e-1111-4222-8333-444455556666';
    const strict = await serveProxy({
      port: 0,
      env: {
        FAN_POLLS_PRESET: 'sandbox',
        FAN_POLLS_PLATFORM_API_URL: harness.sandbox.apiUrl,
        FAN_POLLS_PLATFORM_AUTH_URL: harness.sandbox.authUrl,
        FAN_POLLS_CLIENT_ID: canaryApplication.clientId,
        FAN_POLLS_CLIENT_SECRET: canaryApplication.clientSecret,
        FAN_POLLS_EXTENSION_ORIGINS: listed,
        FAN_POLLS_ACCEPT_ANY_FIREFOX_ORIGIN: 'false',
      },
      deps: { logger: createJsonLogger([], () => undefined) },
    });
    const refresh = (origin: string) =>
      fetch(`${strict.url}/extension/refresh`, {
        method: 'POST',
        headers: { Origin: origin, 'Content-Type': 'application/json' },
        body: JSON.stringify({ refreshToken: 'unknown' }),
      });
    try {
      expect(await errorCode(await refresh(listed))).toBe('invalid_grant');
      expect(await errorCode(await refresh('moz-extension://9f9f9f9f-1111-4222-8333-444455556666'))).toBe(
        'extension_not_allowed',
      );
    } finally {
      await strict.close();
    }
  });

  it('refuses a body that is not JSON', async () => {
    const response = await harness.call('/extension/refresh', {
      method: 'POST',
      origin: extensionOrigin,
      headers: { 'Content-Type': 'text/plain' },
      body: 'refreshToken=x',
    });
    expect(response.status).toBe(400);
    expect(await errorCode(response)).toBe('invalid_body');
  });
});

describe('platform unreachable', () => {
  it('answers 502 upstream_unavailable with the error body, and a sign-in ends on a clear page', async () => {
    const logLines: string[] = [];
    const down = await serveProxy({
      port: 0,
      env: {
        FAN_POLLS_PRESET: 'sandbox',
        FAN_POLLS_PLATFORM_API_URL: 'http://127.0.0.1:9',
        FAN_POLLS_PLATFORM_AUTH_URL: 'http://127.0.0.1:9',
        FAN_POLLS_ALLOWED_ORIGINS: pageOrigin,
      },
      deps: { logger: createJsonLogger([], (_level, line) => logLines.push(line)) },
    });
    try {
      const response = await fetch(`${down.url}/api/polls`, { headers: { Origin: pageOrigin } });
      expect(response.status).toBe(502);
      expect(response.headers.get('access-control-allow-origin')).toBe(pageOrigin);
      expect(((await response.json()) as ProxyErrorBody).error.code).toBe('upstream_unavailable');
      expect(logLines.some((line) => line.includes('"code":"upstream_unavailable"'))).toBe(true);
      expect(logLines.join('\n')).not.toContain(down.config.clientSecret);
    } finally {
      await down.close();
    }
  });
});
