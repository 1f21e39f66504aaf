// What the proxy costs the platform: a crowd of reads of one poll is one upstream request, and an expired upstream
// token (the application's or a fan's) costs exactly one token request however many requests need it at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Poll } from '../../src/platform/types.ts';
import { castVote, fanHeaders, signIn, startHarness, type Harness } from './proxy-harness.ts';

let harness: Harness;
beforeAll(async () => {
  // A long freshness, so that however slowly a loaded machine opens 1,000 sockets, only coalescing is measured.
  harness = await startHarness({ pollCacheSeconds: 300 });
});
afterAll(async () => {
  await harness.close();
});

const twoHoursMs = 2 * 60 * 60 * 1000;
const count = (predicate: (call: Harness['upstream'][number]) => boolean) =>
  harness.upstream.filter(predicate).length;

describe('upstream cost', () => {
  it('answers 1,000 concurrent reads of one poll with one upstream request', async () => {
    const polls = ((await (await harness.call('/api/polls')).json()) as { data: Poll[] }).data;
    const pollId = polls.at(-1)!.id;
    const isRead = (call: Harness['upstream'][number]) => call.url.pathname.endsWith(`/poll/${pollId}`);
    const before = count(isRead);
    const answers = await Promise.all(
      Array.from({ length: 1000 }, () => fetch(`${harness.proxy.url}/api/polls/${pollId}`)),
    );
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    const etags = new Set(answers.map((answer) => answer.headers.get('etag')));
    await Promise.all(answers.map((answer) => answer.body?.cancel() ?? Promise.resolve()));
    expect(etags.size).toBe(1);
    expect(count(isRead) - before).toBe(1);
  }, 120_000);

  it('gets one new application token when the platform calls the cached one expired', async () => {
    const polls = ((await (await harness.call('/api/polls')).json()) as { data: Poll[] }).data;
    const grants = () => count((call) => call.grant === 'client_credentials');
    const before = grants();
    harness.sandbox.sandbox.state.clock.advance(twoHoursMs);
    // Ten different polls (ten cache misses) at once, all refused with the old token.
    const ids = polls.slice(0, 10).map((poll) => poll.id);
    const answers = await Promise.all(ids.map((id) => harness.call(`/api/polls/${id}`)));
    expect(answers.map((answer) => answer.status)).toEqual(ids.map(() => 200));
    expect(grants() - before).toBe(1);
  }, 30_000);

  it('refreshes an expired fan token exactly once for concurrent fan requests, with rotation', async () => {
    const { cookie } = await signIn(harness, { username: 'kim' });
    const fan = { cookie: cookie!, headers: fanHeaders };
    expect((await harness.call('/api/user/me', fan)).status).toBe(200);
    const refreshes = () => count((call) => call.grant === 'refresh_token');
    const before = refreshes();
    harness.sandbox.sandbox.state.clock.advance(twoHoursMs);
    const answers = await Promise.all([
      harness.call('/api/user/me', fan),
      harness.call('/api/user/polls', fan),
      harness.call('/api/user/polls-history', fan),
      harness.call('/api/user/me', fan),
      harness.call('/api/user/polls', fan),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
    expect(refreshes() - before).toBe(1);
    // The rotated pair is the session's now: later requests need no further refresh.
    expect((await harness.call('/api/user/me', fan)).status).toBe(200);
    expect(refreshes() - before).toBe(1);
  });

  it('sends a vote refused for an expired token once more after one refresh, and it counts', async () => {
    const { cookie } = await signIn(harness, { username: 'sam' });
    const fan = { cookie: cookie!, headers: fanHeaders };
    const clock = harness.sandbox.sandbox.state.clock;
    clock.advance(twoHoursMs);
    const refreshes = () => count((call) => call.grant === 'refresh_token');
    const votes = () => count((call) => call.method === 'POST' && call.url.pathname.endsWith('/vote'));
    const before = { refreshes: refreshes(), votes: votes() };
    // The proxy still believes its token fresh; the platform does not. The list call refreshes; the vote must not
    // need a second refresh, so expire the rotated token too before voting.
    const userPolls = ((await (await harness.call('/api/user/polls', fan)).json()) as { data: Poll[] }).data;
    const now = clock.now();
    const poll = userPolls.find(
      (candidate) =>
        candidate.userVote === false &&
        candidate.status !== 'cancelled' &&
        candidate.openAt !== undefined &&
        Date.parse(candidate.openAt) <= now &&
        candidate.closeAt !== undefined &&
        Date.parse(candidate.closeAt) > now + twoHoursMs + 60_000,
    );
    if (!poll) throw new Error('No open poll for sam at the sandbox time.');
    clock.advance(twoHoursMs);
    const vote = await castVote(harness, fan.cookie, poll.id, poll.answers[0]!.id);
    expect(vote.status).toBe(201);
    expect(refreshes() - before.refreshes).toBe(2);
    expect(votes() - before.votes).toBe(2);
    const after = await harness.call(`/api/user/polls/${poll.id}`, fan);
    expect(((await after.json()) as { data: Poll }).data.userVote).toBe(true);
  });
});

describe('a throttled platform', () => {
  let throttled: Harness;
  let offsetMs = 0;
  beforeAll(async () => {
    throttled = await startHarness({}, { now: () => Date.now() + offsetMs });
  });
  afterAll(async () => {
    await throttled.close();
  });

  it('is left alone until its Retry-After, with the wait passed on to every visitor', async () => {
    const polls = ((await (await throttled.call('/api/polls')).json()) as { data: Poll[] }).data;
    const [first, second] = polls.map((poll) => poll.id);
    const reads = () => throttled.upstream.filter((call) => call.url.pathname.includes('/poll/')).length;
    throttled.sandbox.sandbox.faults.throttleNext(1, 30);
    const before = reads();

    const refused = await throttled.call(`/api/polls/${first}`);
    expect(refused.status).toBe(503);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('upstream_throttled');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(20);
    expect(reads() - before).toBe(1);

    // Another poll, another visitor: answered from the proxy's memory of the 429, not by asking again.
    const held = await throttled.call(`/api/polls/${second}`);
    expect(held.status).toBe(503);
    expect(Number(held.headers.get('retry-after'))).toBeGreaterThan(20);
    expect(reads() - before).toBe(1);

    offsetMs = 31_000;
    expect((await throttled.call(`/api/polls/${second}`)).status).toBe(200);
    expect(reads() - before).toBe(2);
  });
});

describe('a vote refused for a token another request already replaced', () => {
  let fresh: Harness;
  beforeAll(async () => {
    fresh = await startHarness();
  });
  afterAll(async () => {
    await fresh.close();
  });

  it('is sent again on the newer token, without one more refresh', async () => {
    const { cookie } = await signIn(fresh, { username: 'sam' });
    const fan = { cookie: cookie!, headers: fanHeaders };
    const userPolls = ((await (await fresh.call('/api/user/polls', fan)).json()) as { data: Poll[] }).data;
    const clock = fresh.sandbox.sandbox.state.clock;
    clock.advance(twoHoursMs);
    const now = clock.now();
    const poll = userPolls.find(
      (candidate) =>
        candidate.userVote === false &&
        candidate.status !== 'cancelled' &&
        candidate.openAt !== undefined &&
        Date.parse(candidate.openAt) <= now &&
        candidate.closeAt !== undefined &&
        Date.parse(candidate.closeAt) > now + 60_000,
    );
    if (!poll) throw new Error('No open poll for sam at the sandbox time.');
    const refreshes = () => fresh.upstream.filter((call) => call.grant === 'refresh_token').length;
    const votes = () =>
      fresh.upstream.filter((call) => call.method === 'POST' && call.url.pathname.endsWith('/vote')).length;
    const before = { refreshes: refreshes(), votes: votes() };

    // The vote leaves with the expired token; before the platform answers, another request of the same fan meets the
    // refusal first and refreshes. The vote's own refusal must then cost no second refresh.
    fresh.beforeUpstream = async (request) => {
      if (!request.url.endsWith('/vote')) return;
      fresh.beforeUpstream = undefined;
      expect((await fresh.call('/api/user/me', fan)).status).toBe(200);
    };
    const vote = await castVote(fresh, fan.cookie, poll.id, poll.answers[0]!.id);
    expect(vote.status).toBe(201);
    expect(votes() - before.votes).toBe(2);
    expect(refreshes() - before.refreshes).toBe(1);
  });
});
