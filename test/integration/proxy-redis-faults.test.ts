// Redis failing under two proxy instances, over real sockets: Debian's redis-server (started here) behind a TCP
// forwarder the test controls, then stopped, paused (SIGSTOP), slowed (3 s per answer) and blackholed. The bounds
// asserted are the operations section's: a fan route, a sign-in's start and the extension's refresh answer 503 with
// Retry-After within 1.5 s, /readyz turns 503 within 3 s, public reads of a poll never read before are served, the
// instance recovers by itself within 15 s of the heal, and no vote is ever doubled.
import { createClient } from '@redis/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { proxyRoutes, type ProxyErrorBody } from '../../src/contracts/proxy-contract.ts';
import type { Poll } from '../../src/platform/types.ts';
import { openRiversidePoll } from '../support/open-poll.ts';
import { startRedis, type TestRedis } from '../support/redis-server.ts';
import { forwardTcp, type TcpForwarder } from '../support/tcp-forwarder.ts';
import {
  castVote,
  extensionOrigin,
  fanHeaders,
  pageOrigin,
  signIn,
  startHarness,
  type Harness,
} from './proxy-harness.ts';

let redis: TestRedis;
let link: TcpForwarder;
/** Fan routes are asked here; `/readyz` and public reads on `other`, so each bound is met by a fresh instance. */
let fans: Harness;
let other: Harness;
const unreadPollIds: string[] = [];

beforeAll(async () => {
  redis = await startRedis();
  link = await forwardTcp(redis.port);
  fans = await startHarness({ redisUrl: `redis://127.0.0.1:${link.port}`, signInPerMinute: 100 });
  other = await fans.addInstance();
  const list = (await (await other.call('/api/polls?limit=50')).json()) as { data: Poll[] };
  unreadPollIds.push(...list.data.map((poll) => poll.id));
}, 30_000);

afterAll(async () => {
  await other.close();
  await fans.close();
  await link.close();
  await redis.close();
}, 20_000);

const meOn = (harness: Harness, cookie: string) =>
  harness.call('/api/user/me', { cookie, headers: fanHeaders });
const readyOn = (harness: Harness) => harness.call('/readyz', { origin: null });
/** A sign-in's start, as the card's popup opens it. */
const signInStartOn = (harness: Harness) =>
  harness.call(`${proxyRoutes.signIn}?origin=${encodeURIComponent(pageOrigin)}`, { origin: null });
/** The extension's refresh through the proxy (its refresh token does not matter: Redis is asked first). */
const extensionRefreshOn = (harness: Harness) =>
  harness.call(proxyRoutes.extensionRefresh, {
    origin: extensionOrigin,
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ refreshToken: 'any' }),
  });

async function timed<T>(work: () => Promise<T>): Promise<{ answer: T; ms: number }> {
  const startedAt = performance.now();
  const answer = await work();
  return { answer, ms: performance.now() - startedAt };
}

async function expectUnavailableWithin(work: () => ReturnType<Harness['call']>, ms: number): Promise<void> {
  const { answer, ms: took } = await timed(work);
  expect(answer.status).toBe(503);
  expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(((await answer.json()) as ProxyErrorBody).error.code).toBe('state_unavailable');
  expect(took).toBeLessThanOrEqual(ms);
}

/** The sign-in popup's page says it, in words and to the card, instead of showing a JSON body. */
async function expectUnavailablePageWithin(work: () => ReturnType<Harness['call']>, ms: number) {
  const { answer, ms: took } = await timed(work);
  expect(answer.status).toBe(503);
  expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(answer.headers.get('content-type')).toMatch(/^text\/html/);
  const page = await answer.text();
  expect(page).toContain('Signing in and voting are briefly unavailable');
  expect(page).toContain('state_unavailable');
  expect(took).toBeLessThanOrEqual(ms);
}

const votesOf = (pollId: string, userId: string) =>
  fans.sandbox.sandbox.state.polls.find(pollId)?.votes.filter((vote) => vote.userId === userId) ?? [];

async function ridesOut(
  username: string,
  fault: () => void | Promise<void>,
  heal: () => void | Promise<void>,
) {
  const { cookie } = await signIn(fans, { username });
  if (cookie === undefined) throw new Error('No session cookie.');
  const me = (await (await meOn(fans, cookie)).json()) as { data: { userId: string } };
  const polls = (
    (await (await fans.call('/api/user/polls?limit=50', { cookie, headers: fanHeaders })).json()) as {
      data: Poll[];
    }
  ).data;
  const poll = openRiversidePoll(polls, { accept: (candidate) => !candidate.userVote });
  const answerId = poll.answers[0]?.id ?? '';
  const unread = unreadPollIds.shift() ?? '';
  const sentBefore = fans.upstream.filter(
    (call) => call.method === 'POST' && call.url.pathname.endsWith(`/poll/${poll.id}/vote`),
  ).length;

  await fault();
  const faultAt = performance.now();
  await expectUnavailableWithin(() => meOn(fans, cookie), 1500);
  await expectUnavailableWithin(() => castVote(fans, cookie, poll.id, answerId), 1500);
  const ready = await timed(() => readyOn(other));
  expect(ready.answer.status).toBe(503);
  // The body names what failed, for the operator reading it.
  expect(((await ready.answer.json()) as { failed?: string[] }).failed).toEqual(['redis: unreachable']);
  expect(performance.now() - faultAt).toBeLessThanOrEqual(3000);
  await expectUnavailablePageWithin(() => signInStartOn(fans), 1500);
  await expectUnavailableWithin(() => extensionRefreshOn(fans), 1500);
  const publicRead = await other.call(`/api/polls/${unread}`);
  expect(publicRead.status).toBe(200);

  await heal();
  const healedAt = performance.now();
  for (const harness of [fans, other]) {
    await expect
      .poll(async () => (await meOn(harness, cookie)).status, { timeout: 15_000, interval: 100 })
      .toBe(200);
  }
  await expect.poll(async () => (await readyOn(other)).status, { timeout: 15_000, interval: 100 }).toBe(200);
  expect(performance.now() - healedAt).toBeLessThanOrEqual(15_000);

  const vote = await castVote(fans, cookie, poll.id, answerId);
  expect([vote.status, await vote.text()]).toEqual([201, expect.anything()]);
  expect(votesOf(poll.id, me.data.userId)).toHaveLength(1);
  const sent = fans.upstream.filter(
    (call) => call.method === 'POST' && call.url.pathname.endsWith(`/poll/${poll.id}/vote`),
  );
  expect(sent.length).toBe(votesOf(poll.id, me.data.userId).length + sentBefore);
}

describe('Redis failing under the proxy', () => {
  it('stopped, then started again', async () => {
    await ridesOut(
      'sam',
      () => redis.stop(),
      () => redis.start(),
    );
  }, 30_000);

  it('paused (SIGSTOP), then resumed (SIGCONT)', async () => {
    await ridesOut(
      'alex',
      () => {
        redis.signal('SIGSTOP');
      },
      () => {
        redis.signal('SIGCONT');
      },
    );
  }, 30_000);

  it('answering 3 s late', async () => {
    await ridesOut(
      'sam',
      () => {
        link.slow(3000);
      },
      () => {
        link.flow();
      },
    );
  }, 30_000);

  it('behind a blackholed link, while an instance on a working link does not notice', async () => {
    const direct = await startHarness({ redisUrl: redis.url });
    try {
      const { cookie } = await signIn(direct, { username: 'kim' });
      await ridesOut(
        'alex',
        async () => {
          link.hold();
          const during = await timed(() => meOn(direct, cookie ?? ''));
          expect(during.answer.status).toBe(200);
          expect(during.ms).toBeLessThanOrEqual(1000);
        },
        () => {
          link.flow();
        },
      );
    } finally {
      await direct.close();
    }
  }, 40_000);

  it('warns, without refusing, when Redis keeps no append-only file', async () => {
    const admin = createClient({ url: redis.url });
    await admin.connect();
    await admin.configSet('appendonly', 'no');
    try {
      const fresh = await fans.addInstance();
      try {
        const ready = await readyOn(fresh);
        expect(ready.status).toBe(200);
        expect(((await ready.json()) as { warnings?: string[] }).warnings).toEqual([
          'redis_without_persistence',
        ]);
        expect(fans.logLines.some((line) => line.includes('redis_without_append_only_file'))).toBe(true);
      } finally {
        await fresh.close();
      }
    } finally {
      await admin.configSet('appendonly', 'yes');
      // Redis refuses SIGTERM while it writes the initial append-only file: let it finish first.
      await expect
        .poll(
          async () =>
            /aof_rewrite_in_progress:0[\s\S]*aof_rewrite_scheduled:0/.test(await admin.info('persistence')),
          {
            timeout: 10_000,
          },
        )
        .toBe(true);
      await expect.poll(async () => (await admin.info('persistence')).includes('aof_enabled:1')).toBe(true);
      await admin.close();
    }
  });
});
