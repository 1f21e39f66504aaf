// Three proxy instances on one real redis-server (Debian's, started here on a free port), one sandbox: a fan moves
// between instances, two instances refresh one session at once, an instance dies mid-vote, Redis restarts, and every
// instance restarts. What is asserted is what the platform recorded and what the fan gets.
import { createClient } from '@redis/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProxyErrorBody } from '../../src/contracts/proxy-contract.ts';
import type { Poll } from '../../src/platform/types.ts';
import { canarySecret, canaryTokenPrefix } from '../support/canary.ts';
import { openRiversidePoll } from '../support/open-poll.ts';
import { startRedis, type TestRedis } from '../support/redis-server.ts';
import {
  callbackResultOf,
  castVote,
  fanHeaders,
  signIn,
  startHarness,
  type Harness,
} from './proxy-harness.ts';

const samId = '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c02';

let redis: TestRedis;
let first: Harness;
let second: Harness;
let third: Harness;

beforeAll(async () => {
  redis = await startRedis();
  first = await startHarness({ redisUrl: redis.url, signInPerMinute: 40 });
  second = await first.addInstance();
  third = await first.addInstance();
}, 30_000);

afterAll(async () => {
  await third.close();
  await second.close();
  await first.close();
  await redis.close();
});

/** An open poll the fan has not voted in yet, with an answer. */
async function unvotedOpenPoll(harness: Harness, cookie: string): Promise<{ id: string; answerId: string }> {
  const polls = (
    (await (await harness.call('/api/user/polls?limit=50', { cookie, headers: fanHeaders })).json()) as {
      data: Poll[];
    }
  ).data;
  const poll = openRiversidePoll(polls, { accept: (candidate) => candidate.userVote === false });
  if (poll.answers[0] === undefined) throw new Error('No open poll left to vote in.');
  return { id: poll.id, answerId: poll.answers[0].id };
}

const votesOf = (harness: Harness, pollId: string, userId: string) =>
  harness.sandbox.sandbox.state.polls.find(pollId)?.votes.filter((vote) => vote.userId === userId) ?? [];

const meOn = (harness: Harness, cookie: string) =>
  harness.call('/api/user/me', { cookie, headers: fanHeaders });

describe('three proxy instances on one Redis', () => {
  it('signs a fan in on one instance, reads on a second and votes on the third; the platform records one vote', async () => {
    const { cookie } = await signIn(first, { username: 'sam' });
    expect(cookie).toBeDefined();
    const me = await meOn(second, cookie!);
    expect(me.status).toBe(200);
    expect(((await me.json()) as { data: { userId: string } }).data.userId).toBe(samId);

    const poll = await unvotedOpenPoll(second, cookie!);
    const vote = await castVote(third, cookie!, poll.id, poll.answerId);
    expect(vote.status).toBe(201);
    expect(votesOf(first, poll.id, samId)).toHaveLength(1);
    const read = await first.call(`/api/user/polls/${poll.id}`, { cookie: cookie!, headers: fanHeaders });
    expect(((await read.json()) as { data: Poll }).data.userVote).toBe(true);
  });

  it('keeps tokens and PKCE verifiers encrypted at rest: no token, verifier or secret in any Redis value', async () => {
    await signIn(first, { username: 'alex' });
    const client = createClient({ url: redis.url });
    await client.connect();
    try {
      const keys = await client.keys('fan-polls:*');
      expect(keys.some((key) => key.startsWith('fan-polls:tokens:'))).toBe(true);
      for (const key of keys) {
        if ((await client.type(key)) !== 'string') continue;
        const value = (await client.get(key)) ?? '';
        expect(value).not.toContain(canaryTokenPrefix);
        expect(value).not.toContain(canarySecret);
      }
    } finally {
      await client.close();
    }
  });

  it('lets two instances refresh one expired session at once: one refresh reaches the platform, both succeed', async () => {
    const { cookie } = await signIn(first, { username: 'kim' });
    // The platform's clock moves past the access token's hour; the refresh token (a day) still holds.
    first.sandbox.sandbox.state.clock.advance(3601 * 1000);
    try {
      const refreshesBefore = first.upstream.filter((call) => call.grant === 'refresh_token').length;
      const [onSecond, onThird] = await Promise.all([meOn(second, cookie!), meOn(third, cookie!)]);
      expect(onSecond.status).toBe(200);
      expect(onThird.status).toBe(200);
      const refreshes =
        first.upstream.filter((call) => call.grant === 'refresh_token').length - refreshesBefore;
      expect(refreshes).toBe(1);
      // The rotated pair is the session's on every instance: the first one, which refreshed nothing, uses it.
      expect((await meOn(first, cookie!)).status).toBe(200);
      expect(first.upstream.filter((call) => call.grant === 'refresh_token').length - refreshesBefore).toBe(
        1,
      );
    } finally {
      first.sandbox.sandbox.state.clock.advance(-3601 * 1000);
    }
  });

  it('takes a sign-in state and a handoff code once, whichever instances they are sent to', async () => {
    const signedIn = await signIn(first, { username: 'sam', handoff: true });
    const { result } = callbackResultOf(signedIn.page);
    const code = result.ok ? result.handoff : undefined;
    expect(code).toBeDefined();
    const redeem = (harness: Harness) =>
      harness.call('/auth/handoff', {
        method: 'POST',
        headers: { ...fanHeaders, 'Content-Type': 'application/json' },
        body: JSON.stringify({ handoff: code }),
      });
    const answers = await Promise.all([redeem(second), redeem(third)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400]);

    // A sign-in started on one instance: of two callbacks with its state on two others, exactly one gets it.
    await first.proxy.proxy.runtime.sessions.addPending({
      state: 'state-taken-once',
      codeVerifier: 'verifier',
      openerOrigin: 'http://127.0.0.1:4999',
      browserId: 'browser',
      handoff: false,
    });
    const taken = await Promise.all(
      [second, third].map((harness) => harness.proxy.proxy.runtime.sessions.takePending('state-taken-once')),
    );
    expect(taken.filter((pending) => pending?.codeVerifier === 'verifier')).toHaveLength(1);
  });

  it('shares the sign-in rate limit: the limit is per client address across all instances', async () => {
    const limited = await startHarness({ redisUrl: redis.url, signInPerMinute: 3 });
    const other = await limited.addInstance();
    const client = createClient({ url: redis.url });
    await client.connect();
    const clearLimits = async () => {
      for (const key of await client.keys('fan-polls:limit:*')) await client.del(key);
    };
    await clearLimits();
    try {
      const starts = [];
      for (const harness of [limited, other, limited, other]) {
        starts.push(
          (
            await harness.call(`/auth/login?origin=${encodeURIComponent('http://127.0.0.1:4999')}`, {
              origin: null,
            })
          ).status,
        );
      }
      expect(starts).toEqual([302, 302, 302, 429]);
    } finally {
      await clearLimits();
      await client.close();
      await other.close();
      await limited.close();
    }
  });

  it('shares the application token: three instances reading cost one client-credentials request', async () => {
    const fresh = await startHarness({ redisUrl: redis.url });
    const instances = [fresh, await fresh.addInstance(), await fresh.addInstance()];
    try {
      const client = createClient({ url: redis.url });
      await client.connect();
      await client.del('fan-polls:application-token');
      await client.close();
      const statuses = await Promise.all(instances.map((harness) => harness.call('/api/polls?limit=3')));
      expect(statuses.map((answer) => answer.status)).toEqual([200, 200, 200]);
      expect(fresh.upstream.filter((call) => call.grant === 'client_credentials')).toHaveLength(1);
    } finally {
      for (const harness of instances.slice(1)) await harness.close();
      await fresh.close();
    }
  });

  it('settles a vote whose instance died mid-flight by re-reading on another instance, never by voting again', async () => {
    const dying = await first.addInstance();
    const { cookie } = await signIn(first, { username: 'sam' });
    const poll = await unvotedOpenPoll(first, cookie!);
    first.beforeUpstream = (request) => {
      // The vote leaves for the platform, and the instance is gone before it can answer the fan.
      if (request.method === 'POST' && request.url.endsWith('/vote')) void dying.proxy.abort();
      return Promise.resolve();
    };
    try {
      await expect(castVote(dying, cookie!, poll.id, poll.answerId)).rejects.toThrow();
    } finally {
      first.beforeUpstream = undefined;
    }
    // What the widget does with a vote in doubt: it reads the fan's poll again, here on another instance.
    await expect.poll(() => votesOf(first, poll.id, samId).length, { timeout: 5000 }).toBe(1);
    const reread = await second.call(`/api/user/polls/${poll.id}`, { cookie: cookie!, headers: fanHeaders });
    expect(reread.status).toBe(200);
    expect(((await reread.json()) as { data: Poll }).data.userVote).toBe(true);
    const votesSent = first.upstream.filter(
      (call) => call.method === 'POST' && call.url.pathname.endsWith(`/poll/${poll.id}/vote`),
    );
    expect(votesSent).toHaveLength(1);
    expect(votesOf(first, poll.id, samId)).toHaveLength(1);
  });

  it('rides out a Redis restart: public reads served, fan routes 503 with Retry-After, then all recovers by itself', async () => {
    const { cookie } = await signIn(first, { username: 'alex' });
    expect((await first.call('/api/polls?limit=4')).status).toBe(200);
    await redis.stop();
    try {
      for (const harness of [first, second, third]) {
        expect((await harness.call('/api/polls?limit=4')).status).toBe(200);
        const fan = await meOn(harness, cookie!);
        expect(fan.status).toBe(503);
        expect(Number(fan.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(((await fan.json()) as ProxyErrorBody).error.code).toBe('state_unavailable');
      }
      const health = await first.call('/healthz', { origin: null });
      expect(health.status).toBe(200);
      expect((await first.call('/readyz', { origin: null })).status).toBe(503);
    } finally {
      await redis.start();
    }
    // The same fan, still signed in (Redis kept its append-only file), on every instance, with nothing restarted.
    for (const harness of [first, second, third]) {
      await expect
        .poll(async () => (await meOn(harness, cookie!)).status, { timeout: 15_000, interval: 200 })
        .toBe(200);
    }
    await expect
      .poll(async () => (await first.call('/readyz', { origin: null })).status, { timeout: 15_000 })
      .toBe(200);
    expect(
      first.logLines.filter((line) => line.includes('"level":"error"') && line.includes('internal_error')),
    ).toEqual([]);
  }, 40_000);

  it('signs no fan out when the instances that served the fan are replaced by new ones', async () => {
    const { cookie } = await signIn(second, { username: 'kim' });
    await second.close();
    await third.close();
    second = await first.addInstance();
    third = await first.addInstance();
    for (const harness of [second, third]) expect((await meOn(harness, cookie!)).status).toBe(200);
  });
});
