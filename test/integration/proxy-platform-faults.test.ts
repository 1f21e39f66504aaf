// The proxy in front of a platform whose token endpoint is down while tokens expire, and of a platform answering
// garbage, over real sockets against the sandbox. The proxy's clock is moved (`shift`) so that 20 s of outage take a
// few seconds of wall time with every ratio kept: the breakers, backoffs and token lifetimes all read that clock.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ProxyErrorBody } from '../../src/contracts/proxy-contract.ts';
import type { Poll } from '../../src/platform/types.ts';
import { platformGuardDefaults } from '../../src/proxy/platform-guard.ts';
import { openRiversidePoll } from '../support/open-poll.ts';
import { castVote, fanHeaders, signIn, startHarness, type Harness } from './proxy-harness.ts';

let harness: Harness;
let shift = 0;

beforeAll(async () => {
  harness = await startHarness({}, { now: () => Date.now() + shift });
});
afterAll(async () => {
  await harness.close();
});
afterEach(() => {
  harness.sandbox.sandbox.state.faults.clear();
  harness.beforeUpstream = undefined;
  // Past every hold and backoff a test left behind.
  shift += 60_000;
});

const errorOf = async (response: Response) => ((await response.json()) as ProxyErrorBody).error;
const tokenRequests = (from: number) =>
  harness.upstream.slice(from).filter((call) => call.url.pathname.endsWith('/oauth2/token'));

/**
 * The worst case of one breaker over `seconds` of outage: the requests that fail before it opens (its threshold, or
 * more when more were already in flight together: `firstWave`), then one trial after each hold at its shortest.
 */
function breakerBound(seconds: number, firstWave: number = platformGuardDefaults.failureThreshold): number {
  const { failureThreshold, openMs, maxOpenMs, jitter } = platformGuardDefaults;
  let trials = 0;
  for (let at = 0, level = 0; ; level += 1) {
    at += Math.min(openMs * 2 ** level, maxOpenMs) * (1 - jitter);
    if (at > seconds * 1000) break;
    trials += 1;
  }
  return Math.max(failureThreshold, firstWave) + trials;
}

describe('the token endpoint down for 20 s while access tokens expire', () => {
  it('costs a handful of token requests for four fans, signs no one out, and serves them within 10 s of its return', async () => {
    const fans = await Promise.all(
      ['alex', 'sam', 'jo', 'kim'].map(async (username) => (await signIn(harness, { username })).cookie!),
    );
    const polls = ((await (await harness.call('/api/polls?limit=50')).json()) as { data: Poll[] }).data;
    const poll = openRiversidePoll(polls);
    // Every access token (the fans' and the application's) past its expiry on the proxy's clock.
    shift += 3 * 60 * 60_000;
    let down = true;
    harness.beforeUpstream = (request) => {
      if (down && new URL(request.url).pathname.endsWith('/oauth2/token')) {
        const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1'), { code: 'ECONNREFUSED' });
        return Promise.reject(new TypeError('fetch failed', { cause: refused }));
      }
      return Promise.resolve();
    };
    const before = harness.upstream.length;
    const statuses = new Set<number>();
    const publicStatuses = new Set<number>();
    let page = 0;
    // 20 s of the proxy's time, every 250 ms: each fan twice at once, and a public read no cache holds.
    for (let step = 0; step < 80; step += 1) {
      shift += 250;
      page += 1;
      const [read, ...answers] = await Promise.all([
        harness.call(`/api/polls?limit=5&page=${page}`),
        ...fans.flatMap((cookie) => [
          harness.call('/api/user/me', { cookie, headers: fanHeaders }),
          harness.call('/api/user/polls', { cookie, headers: fanHeaders }),
        ]),
      ]);
      publicStatuses.add(read.status);
      for (const answer of answers) statuses.add(answer.status);
    }
    // A vote while it is down never reaches the platform, and the fan is told so.
    const vote = await castVote(harness, fans[0]!, poll.id, poll.answers[0]!.id);
    expect(vote.status).toBe(503);
    expect((await errorOf(vote)).code).toBe('vote_not_sent');
    expect(harness.upstream.slice(before).some((call) => call.url.pathname.endsWith('/vote'))).toBe(false);

    const duringOutage = tokenRequests(before).length;
    // One breaker for the token endpoint whatever asks it. Before it opens, one request per token keeper may be in
    // flight at once (single flight: one per session and one for the application), then 5 trials in 20 s at most.
    const firstWave = fans.length + 1;
    expect(breakerBound(20, firstWave)).toBe(10);
    expect(duringOutage).toBeLessThanOrEqual(breakerBound(20, firstWave));
    // Nobody was signed out by an outage: fans got 502 (no answer) or 503 (held, with Retry-After), never 401.
    expect([...statuses].sort()).toEqual([502, 503]);
    // Public reads needing a new application token failed the same way (or hit the per-client miss limit, 429).
    expect([...publicStatuses].every((status) => [429, 502, 503].includes(status))).toBe(true);

    down = false;
    const returned = harness.upstream.length;
    let servedAfterMs = 0;
    for (;;) {
      const answers = await Promise.all(
        fans.map((cookie) => harness.call('/api/user/me', { cookie, headers: fanHeaders })),
      );
      if (answers.every((answer) => answer.status === 200)) break;
      expect(servedAfterMs).toBeLessThanOrEqual(platformGuardDefaults.maxOpenMs);
      shift += 250;
      servedAfterMs += 250;
    }
    // The breaker's longest hold (10 s), counted in the test's 250 ms steps.
    expect(servedAfterMs).toBeLessThanOrEqual(platformGuardDefaults.maxOpenMs + 250);
    // Single flight per session: one refresh each, concurrent requests joined it.
    const refreshes = tokenRequests(returned).filter((call) => call.grant === 'refresh_token');
    expect(refreshes.length).toBeLessThanOrEqual(fans.length);
    const vote2 = await castVote(harness, fans[0]!, poll.id, poll.answers[0]!.id);
    expect([201, 409]).toContain(vote2.status);
  }, 60_000);
});

describe('a platform answering malformed 200s', () => {
  it('is read at most once per poll per freshness window, and at most a breaker’s worth in all', async () => {
    const polls = ((await (await harness.call('/api/polls?limit=10')).json()) as { data: Poll[] }).data;
    const [cached, ...others] = polls.slice(0, 4).map((poll) => poll.id);
    expect((await harness.call(`/api/polls/${cached!}`)).status).toBe(200);
    harness.sandbox.sandbox.state.faults.malformNext(1_000_000);
    const before = harness.upstream.length;
    const served = new Map<string, number[]>();
    // 10 s of the proxy's time, every 100 ms: four readers, one per poll (one of them cached before).
    for (let tenth = 0; tenth < 100; tenth += 1) {
      shift += 100;
      for (const id of [cached!, ...others]) {
        const answer = await harness.call(`/api/polls/${id}`);
        served.set(id, [...(served.get(id) ?? []), answer.status]);
      }
    }
    const reads = (id: string) =>
      harness.upstream.slice(before).filter((call) => call.url.pathname.endsWith(`/poll/${id}`)).length;
    const freshSeconds = harness.proxy.config.pollCacheSeconds;
    for (const id of [cached!, ...others])
      expect(reads(id)).toBeLessThanOrEqual(Math.ceil(10 / freshSeconds) + 1);
    // One breaker for the public poll routes: 3 garbage answers, then a trial per hold.
    expect(harness.upstream.length - before).toBeLessThanOrEqual(breakerBound(10));
    // The poll read before stays served (its copy, stale-if-error); the others are 502 (garbage) or 503 (held).
    expect(new Set(served.get(cached!))).toEqual(new Set([200]));
    for (const id of others) expect([...new Set(served.get(id))].sort()).toEqual([502, 503]);
    harness.sandbox.sandbox.state.faults.clear();
    shift += platformGuardDefaults.maxOpenMs;
    await expect.poll(async () => (await harness.call(`/api/polls/${others[0]!}`)).status).toBe(200);
  }, 60_000);
});

describe('a vote’s outcome, told as it is', () => {
  /** Votes once while the vote's connection fails with `socketCode`; what went upstream meanwhile. */
  async function voteFailing(socketCode: string) {
    const { cookie } = await signIn(harness, { username: 'rex' });
    const polls = ((await (await harness.call('/api/polls?limit=50')).json()) as { data: Poll[] }).data;
    const poll = openRiversidePoll(polls);
    const cause = Object.assign(new Error(socketCode), { code: socketCode });
    harness.beforeUpstream = (request) =>
      request.method === 'POST' && new URL(request.url).pathname.endsWith('/vote')
        ? Promise.reject(new TypeError('fetch failed', { cause }))
        : Promise.resolve();
    const before = harness.upstream.length;
    const vote = await castVote(harness, cookie!, poll.id, poll.answers[0]!.id);
    return { vote, sent: harness.upstream.slice(before).map((call) => call.method) };
  }

  it('is vote_not_sent, without a re-read, when the connection was refused', async () => {
    const { vote, sent } = await voteFailing('ECONNREFUSED');
    expect(vote.status).toBe(503);
    expect(await errorOf(vote)).toMatchObject({
      code: 'vote_not_sent',
      message: 'Your vote was not sent. Try again.',
    });
    expect(sent).toEqual(['POST']);
  });

  it('is vote_uncertain, after one re-read, when the connection failed after it may have been sent', async () => {
    const { vote, sent } = await voteFailing('ECONNRESET');
    expect(vote.status).toBe(502);
    expect((await errorOf(vote)).code).toBe('vote_uncertain');
    expect(sent).toEqual(['POST', 'GET']);
  });
});
