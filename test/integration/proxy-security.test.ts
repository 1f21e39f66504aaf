// The proxy's security properties against the sandbox as a real server: no token or secret in any answer or log
// line, the session cookie's attributes, no open redirect under fuzzed return addresses, the sign-in rate limit.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extensionRedirectUri } from '../../src/local-defaults.ts';
import type { ExtensionTokenSet, ProxyErrorBody } from '../../src/contracts/proxy-contract.ts';
import { createAuthorizationRequest } from '../../src/platform/oauth.ts';
import type { Poll } from '../../src/platform/types.ts';
import { answerConsent } from '../../src/sandbox/oauth/headless-consent.ts';
import {
  callbackResultOf,
  castVote,
  canaryApplication,
  extensionOrigin,
  fanHeaders,
  pageOrigin,
  signIn,
  startHarness,
  type Harness,
} from './proxy-harness.ts';
import { canarySecret, canaryTokenPrefix } from '../support/canary.ts';

describe('canary secret and canary tokens', () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness();
  });
  afterAll(async () => {
    await harness.close();
  });

  it('never appear in an answer (but the extension’s own token set) or a log line, across every route', async () => {
    const polls = ((await (await harness.call('/api/polls')).json()) as { data: Poll[] }).data;
    await harness.call(`/api/polls/${polls[0]!.id}`);
    await harness.call('/api/polls?bound=nope');
    const { cookie, page } = await signIn(harness, { username: 'sam', handoff: true });
    await signIn(harness, { decision: 'deny' });
    const fan = { cookie: cookie!, headers: fanHeaders };
    const signedIn = callbackResultOf(page).result;
    const handoff = signedIn.ok ? signedIn.handoff : undefined;
    await harness.call('/auth/handoff', {
      method: 'POST',
      headers: { ...fanHeaders, 'Content-Type': 'application/json' },
      body: JSON.stringify({ handoff }),
    });
    await harness.call('/auth/session', { cookie: cookie! });
    await harness.call('/api/user/me', fan);
    await harness.call('/api/user/polls', fan);
    await harness.call('/api/user/polls-history', fan);
    await harness.call(`/api/user/polls/${polls[0]!.id}`, fan);
    await castVote(harness, fan.cookie, polls[0]!.id, '00000000-0000-4000-8000-000000000000');
    await harness.call('/api/user/me', { cookie: cookie! });

    const request = await createAuthorizationRequest({
      authUrl: harness.sandbox.authUrl,
      clientId: canaryApplication.clientId,
      partnerTag: canaryApplication.partnerTag,
      redirectUri: extensionRedirectUri,
    });
    const outcome = await answerConsent((input, init) => fetch(input, init), request.url.href, {
      decision: 'allow',
    });
    if (outcome.kind !== 'redirect') throw new Error('no redirect');
    const code = new URL(outcome.location).searchParams.get('code')!;
    const post = (path: string, body: unknown) =>
      harness.call(path, {
        method: 'POST',
        origin: extensionOrigin,
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
    const tokenSet = (await (
      await post('/extension/token', {
        code,
        codeVerifier: request.codeVerifier,
        redirectUri: extensionRedirectUri,
      })
    ).json()) as ExtensionTokenSet;
    await post('/extension/token', {
      code,
      codeVerifier: request.codeVerifier,
      redirectUri: extensionRedirectUri,
    });
    await post('/extension/refresh', { refreshToken: `${canaryTokenPrefix}-made-up` });
    await post('/extension/revoke', { token: tokenSet.accessToken });
    await harness.call('/auth/logout', { method: 'POST', ...fan });

    // The canary is live: the extension's own token set carries it, so a leak elsewhere would be seen.
    expect(tokenSet.accessToken.startsWith(canaryTokenPrefix)).toBe(true);
    const extensionTokenAnswers = harness.answers.filter(
      (answer) => /^\/extension\/(token|refresh)$/.test(answer.path) && answer.status === 200,
    );
    expect(extensionTokenAnswers.length).toBe(1);
    const everythingElse = harness.answers.filter((answer) => !extensionTokenAnswers.includes(answer));
    expect(everythingElse.length).toBeGreaterThan(15);
    for (const answer of everythingElse) {
      const text = `${answer.headers}\n${answer.body}`;
      expect(text, answer.path).not.toContain(canaryTokenPrefix);
      expect(text, answer.path).not.toContain(canarySecret);
    }
    expect(harness.logLines.length).toBeGreaterThan(5);
    for (const line of harness.logLines) {
      expect(line).not.toContain(canaryTokenPrefix);
      expect(line).not.toContain(canarySecret);
    }
  });
});

describe('session cookie', () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness();
  });
  afterAll(async () => {
    await harness.close();
  });

  it('is __Host-, HttpOnly, Secure, SameSite=None, Partitioned, signed, and renewed at sign-in', async () => {
    const login = await harness.call(`/auth/login?origin=${encodeURIComponent(pageOrigin)}`, {
      origin: null,
    });
    const line = login.headers.getSetCookie().find((value) => value.startsWith('__Host-fan-polls-session='));
    expect(line).toBeDefined();
    const attributes = line!.split(';').map((part) => part.trim());
    expect(attributes).toEqual(
      expect.arrayContaining(['Path=/', 'HttpOnly', 'Secure', 'SameSite=None', 'Partitioned']),
    );
    expect(attributes.some((part) => /^Domain=/i.test(part))).toBe(false);
    expect(attributes.find((part) => part.startsWith('Max-Age='))).toMatch(/^Max-Age=\d+$/);

    const { cookie } = await signIn(harness);
    expect(cookie).toBeDefined();
    expect(cookie).not.toBe(line!.split(';')[0]);
    // Secure cookies over http://127.0.0.1: the proxy sets and honours them on loopback (Chromium stores them there).
    const status = await harness.call('/auth/session', { cookie: cookie! });
    expect(((await status.json()) as { signedIn: boolean }).signedIn).toBe(true);
  });
});

describe('sign-in return address', () => {
  let harness: Harness;
  beforeAll(async () => {
    // As in production: the sandbox preset's any-loopback-origin allowance would admit the loopback lookalikes.
    harness = await startHarness({ signInPerMinute: 100_000, allowLoopbackOrigins: false });
  });
  afterAll(async () => {
    await harness.close();
  });

  const lookalikes = [
    `${pageOrigin}/`,
    pageOrigin.toUpperCase(),
    `${pageOrigin}.evil.example`,
    `${pageOrigin}0`,
    `${pageOrigin}@evil.example`,
    `http://evil.example#${pageOrigin}`,
    `//evil.example`,
    `javascript:alert(1)//${pageOrigin}`,
    ` ${pageOrigin}`,
    `${pageOrigin}\n`,
    'null',
    '*',
    '',
    'https://127.0.0.1:4999',
  ];

  it('never redirects or posts anywhere for an origin that is not exactly an allowed one (fuzzed)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.constantFrom(...lookalikes),
          fc.webUrl(),
          fc.string(),
          fc.string().map((tail) => `${pageOrigin}${tail}`),
          fc.string().map((head) => `${head}${pageOrigin}`),
        ),
        async (origin) => {
          fc.pre(origin !== pageOrigin);
          const response = await harness.call(`/auth/login?origin=${encodeURIComponent(origin)}`, {
            origin: null,
          });
          expect(response.status).toBe(400);
          expect(response.headers.get('location')).toBeNull();
          expect(response.headers.getSetCookie()).toEqual([]);
          expect(callbackResultOf(await response.text()).openerOrigin).toBeNull();
        },
      ),
      { numRuns: 300 },
    );
  }, 60_000);

  it('always redirects an allowed origin to the platform authorize with the proxy’s own callback (fuzzed extras)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(
          fc.constantFrom('redirect_uri', 'return_to', 'next', 'state', 'client_id', 'url'),
          fc.webUrl(),
        ),
        async (extras) => {
          const query = new URLSearchParams({ ...extras, origin: pageOrigin });
          const response = await harness.call(`/auth/login?${query.toString()}`, { origin: null });
          expect(response.status).toBe(302);
          const location = new URL(response.headers.get('location')!);
          expect(`${location.origin}${location.pathname}`).toBe(
            `${harness.sandbox.authUrl}/oauth2/authorize`,
          );
          expect(location.searchParams.get('redirect_uri')).toBe(harness.proxy.config.callbackUrl);
          expect(location.searchParams.get('client_id')).toBe(canaryApplication.clientId);
        },
      ),
      { numRuns: 100 },
    );
  }, 60_000);
});

describe('sign-in rate limit', () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness({ signInPerMinute: 2 });
  });
  afterAll(async () => {
    await harness.close();
  });

  it('answers a clear page (and a message to the card) once a client starts too many sign-ins', async () => {
    const start = () =>
      harness.call(`/auth/login?origin=${encodeURIComponent(pageOrigin)}`, { origin: null });
    expect((await start()).status).toBe(302);
    expect((await start()).status).toBe(302);
    const limited = await start();
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    const { result, openerOrigin } = callbackResultOf(await limited.text());
    expect(result).toMatchObject({ ok: false, error: 'rate_limited' });
    expect(openerOrigin).toBe(pageOrigin);
  });
});

describe('token mediation rate limit', () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness({ signInPerMinute: 1, tokenMediationPerMinute: 3 });
  });
  afterAll(async () => {
    await harness.close();
  });
  const post = (path: string, body: unknown) =>
    harness.call(path, {
      method: 'POST',
      origin: extensionOrigin,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
  const codeOf = async (response: Response) => ((await response.json()) as ProxyErrorBody).error.code;

  it('limits refresh and revoke on their own, higher budget, and code exchange on the strict sign-in one', async () => {
    // Three refresh/revoke calls fit even though the sign-in budget is one a minute.
    expect(await codeOf(await post('/extension/refresh', { refreshToken: 'unknown-1' }))).toBe(
      'invalid_grant',
    );
    expect(await codeOf(await post('/extension/refresh', { refreshToken: 'unknown-2' }))).toBe(
      'invalid_grant',
    );
    expect((await post('/extension/revoke', { token: 'unknown-3' })).status).toBe(204);
    const limited = await post('/extension/refresh', { refreshToken: 'unknown-4' });
    expect(limited.status).toBe(429);
    expect(await codeOf(limited)).toBe('rate_limited');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await post('/extension/revoke', { token: 'unknown-5' })).status).toBe(429);

    // The code exchange keeps the strict limit, unaffected by the refreshes above.
    const exchange = { code: 'unknown', codeVerifier: 'v'.repeat(43), redirectUri: extensionRedirectUri };
    expect(await codeOf(await post('/extension/token', exchange))).toBe('invalid_grant');
    expect(await codeOf(await post('/extension/token', exchange))).toBe('rate_limited');
    // And a page's sign-in start has its own count under that limit.
    const start = await harness.call(`/auth/login?origin=${encodeURIComponent(pageOrigin)}`, {
      origin: null,
    });
    expect(start.status).toBe(302);
  });
});

describe('sign-in rate limit behind a load balancer', () => {
  let harness: Harness;
  let behindTwoHops: Harness;
  beforeAll(async () => {
    harness = await startHarness({ signInPerMinute: 1, clientAddressHeader: 'X-Forwarded-For' });
    behindTwoHops = await startHarness({
      signInPerMinute: 1,
      clientAddressHeader: 'X-Forwarded-For',
      trustedProxyHops: 2,
    });
  });
  afterAll(async () => {
    await harness.close();
    await behindTwoHops.close();
  });
  const start = (target: Harness, forwardedFor: string) =>
    target.call(`/auth/login?origin=${encodeURIComponent(pageOrigin)}`, {
      origin: null,
      headers: { 'X-Forwarded-For': forwardedFor },
    });

  it('keys the limit on the address the trusted proxy added (the last), not on what the client wrote first', async () => {
    // The load balancer appends the address it saw; anything before it is the client's own word.
    expect((await start(harness, '203.0.113.1')).status).toBe(302);
    expect((await start(harness, '203.0.113.2')).status).toBe(302);
    // The same client making up a new first address each time is still the same client.
    expect((await start(harness, '198.51.100.7, 203.0.113.1')).status).toBe(429);
    expect((await start(harness, '198.51.100.8, 10.9.9.9, 203.0.113.2')).status).toBe(429);
    // And naming someone else's address first does not spend that one's budget.
    expect((await start(harness, '203.0.113.2, 203.0.113.3')).status).toBe(302);
  });

  it('with FAN_POLLS_TRUSTED_PROXY_HOPS=2 (CDN then load balancer) takes the second address from the right', async () => {
    // client-written, client (added by the CDN), CDN (added by the load balancer)
    expect((await start(behindTwoHops, '203.0.113.1, 192.0.2.10')).status).toBe(302);
    expect((await start(behindTwoHops, '198.51.100.7, 203.0.113.1, 192.0.2.11')).status).toBe(429);
    expect((await start(behindTwoHops, '203.0.113.1, 203.0.113.4, 192.0.2.10')).status).toBe(302);
  });
});

describe('a flood of sign-in starts', () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness(
      { signInPerMinute: 10_000 },
      { sessions: { maxSessions: 3, maxPendingSignIns: 5 } },
    );
  });
  afterAll(async () => {
    await harness.close();
  });

  it('does not evict a signed-in fan, and a sign-in started after it still completes', async () => {
    const { cookie } = await signIn(harness, { username: 'sam' });
    const fan = { cookie: cookie!, headers: fanHeaders };
    expect((await harness.call('/api/user/me', fan)).status).toBe(200);

    // Many more cookieless sign-in starts than there is room for sessions or pending sign-ins.
    for (let index = 0; index < 20; index += 1) {
      const start = await harness.call(`/auth/login?origin=${encodeURIComponent(pageOrigin)}`, {
        origin: null,
      });
      expect(start.status).toBe(302);
    }

    expect((await harness.call('/api/user/me', fan)).status).toBe(200);
    const status = await harness.call('/auth/session', { cookie: cookie! });
    expect(((await status.json()) as { signedIn: boolean }).signedIn).toBe(true);
    const late = await signIn(harness, { username: 'kim' });
    expect(callbackResultOf(late.page).result.ok).toBe(true);
    expect((await harness.call('/api/user/me', { cookie: late.cookie!, headers: fanHeaders })).status).toBe(
      200,
    );
  });
});
