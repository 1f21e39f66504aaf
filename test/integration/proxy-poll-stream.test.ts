// Live poll streams on three proxy instances over one real redis-server: 300 streams (plain fetch readers of the
// event stream) spread over the instances watch three open polls. Counted at the sandbox: the platform reads of each
// poll per freshness window, all instances together. Every stream must see every change made at the sandbox,
// stopping the instance that refreshes must move the refreshing to another within one window, and with Redis paused
// the instances refresh on their own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pollEventName } from '../../src/contracts/poll-stream-contract.ts';
import { pollStreamPath } from '../../src/contracts/poll-stream-contract.ts';
import { parsePollList } from '../../src/platform/parse.ts';
import { pollStreamHubOf } from '../../src/proxy/poll-stream/poll-stream-route.ts';
import { applicationToken, apiRequest } from '../../src/sandbox/test-kit.ts';
import { startRedis, type TestRedis } from '../support/redis-server.ts';
import { waitUntil } from '../support/wait-until.ts';
import { openPollIdsFromProxy } from '../support/open-poll.ts';
import { readEventStream, type EventStreamReader, type ServerSentEvent } from '../support/sse-reader.ts';
import { pageOrigin, startHarness, type Harness } from './proxy-harness.ts';

/** The proxy's shortest freshness window (`pollCacheSeconds: 1`): the test waits out several of them. */
const freshMs = 1000;
const streamCount = 300;

let redis: TestRedis;
let instances: Harness[];
let pollIds: string[];

beforeAll(async () => {
  redis = await startRedis();
  const first = await startHarness({
    redisUrl: redis.url,
    pollCacheSeconds: freshMs / 1000,
    streamsPerClient: 1000,
  });
  instances = [first, await first.addInstance(), await first.addInstance()];
  // The platform changes only when the test says so.
  first.sandbox.sandbox.simulation.setRate(0);
  pollIds = await openPollIdsFromProxy(first.proxy.url, 3);
  expect(pollIds).toHaveLength(3);
}, 60_000);

afterAll(async () => {
  for (const instance of instances.slice(1).reverse()) await instance.close().catch(() => undefined);
  // The first instance's harness owns the sandbox: closed last, whether or not the test stopped its proxy.
  await instances[0]?.close().catch(() => undefined);
  await redis.close();
});

/** One fan's stream: the newest vote count it has seen of each poll. */
interface Fan {
  readonly reader: EventStreamReader;
  readonly instance: Harness;
  readonly seen: Map<string, number>;
}

async function openFan(instance: Harness): Promise<Fan> {
  const query = pollIds.map((id) => `ids[]=${id}`).join('&');
  const reader = await readEventStream(`${instance.proxy.url}${pollStreamPath}?${query}`, {
    headers: { Origin: pageOrigin },
  });
  const seen = new Map<string, number>();
  const note = (event: ServerSentEvent) => {
    if (event.event !== pollEventName) return;
    for (const poll of parsePollList(JSON.parse(event.data)))
      seen.set(poll.id.toLowerCase(), poll.statistics.uniqueVoteCount);
  };
  for (const event of reader.events) note(event);
  reader.onEvent(note);
  return { reader, instance, seen };
}

/** The polls' vote counts as the platform answers them now (in-process, not through the proxy: not counted). */
async function tallies(): Promise<Map<string, number>> {
  const { sandbox } = instances[0]!.sandbox;
  const answer = await apiRequest(
    sandbox,
    `/polls/1.0.8/polls?${pollIds.map((id) => `ids[]=${id}`).join('&')}&limit=3`,
    applicationToken(sandbox),
  );
  return new Map(
    parsePollList(await answer.json()).map((poll) => [
      poll.id.toLowerCase(),
      poll.statistics.uniqueVoteCount,
    ]),
  );
}

/** One simulated vote in each poll, at the sandbox. */
function changeEveryPoll(): void {
  const { polls } = instances[0]!.sandbox.sandbox.state;
  for (const id of pollIds) {
    const poll = polls.published().find((each) => each.id.toLowerCase() === id)!;
    polls.recordSimulatedVote(poll, poll.answers[0]!.id, `stream-fan-${crypto.randomUUID()}`, 3);
  }
}

/** Resolves when every fan has seen the tallies (or throws after `timeoutMs`, naming how many had not). */
async function everyFanSees(fans: readonly Fan[], target: Map<string, number>, timeoutMs: number) {
  const behind = () =>
    fans.filter((fan) => pollIds.some((id) => (fan.seen.get(id) ?? -1) < (target.get(id) ?? 0)));
  await waitUntil(() => behind().length === 0, 'every stream to see the change', timeoutMs, 20).catch(() => {
    throw new Error(
      `${String(behind().length)} streams did not see the change: ${JSON.stringify([...target])} ${JSON.stringify([...(behind()[0]?.seen ?? [])])}`,
    );
  });
}

const platformReadsOf = (pollId: string): number =>
  instances[0]!.upstream.filter(
    (call) => call.method === 'GET' && call.url.pathname.endsWith(`/poll/${pollId}`),
  ).length;

const refreshesOf = (instance: Harness): number =>
  pollStreamHubOf(instance.proxy.proxy.runtime)?.refreshes ?? 0;

describe('live poll streams on three instances over one Redis', () => {
  it(
    'read each poll from the platform once per window for 300 streams, give every stream every change, move the refreshing when its instance stops, and carry on with Redis paused',
    { timeout: 180_000 },
    async () => {
      const fans: Fan[] = [];
      for (let index = 0; index < streamCount; index += 1)
        fans.push(await openFan(instances[index % instances.length]!));
      // Every stream has every poll's current copy.
      await everyFanSees(fans, await tallies(), 10_000);
      expect(
        fans.every((fan) => fan.reader.response.headers.get('cache-control')?.includes('no-store')),
      ).toBe(true);
      expect(fans[0]!.reader.response.headers.get('access-control-allow-origin')).toBe(pageOrigin);
      expect(fans[0]!.reader.response.headers.get('x-accel-buffering')).toBe('no');
      expect(instances.map((instance) => pollStreamHubOf(instance.proxy.proxy.runtime)?.streams)).toEqual([
        100, 100, 100,
      ]);

      // A change in every window: every stream sees each within the window plus a margin.
      const readsBefore = pollIds.map(platformReadsOf);
      const startedAt = Date.now();
      const delays: number[] = [];
      const windows = 5;
      for (let change = 0; change < windows; change += 1) {
        changeEveryPoll();
        const changedAt = Date.now();
        await everyFanSees(fans, await tallies(), freshMs + 3000);
        // Seen, so the window's read is done: the next change waits for the next window's.
        delays.push(Date.now() - changedAt);
      }
      const elapsedWindows = (Date.now() - startedAt) / freshMs;
      const reads = pollIds.map((id, index) => platformReadsOf(id) - readsBefore[index]!);
      console.log('STREAM_PLATFORM_READS', reads, 'in', elapsedWindows.toFixed(2), 'windows; delays', delays);
      for (const count of reads) expect(count).toBeLessThanOrEqual(Math.ceil(elapsedWindows) + 1);

      // Stop the instance that refreshes: another takes over within one window (and its grace), streams on the
      // others still see every change.
      const refresher = instances.reduce((most, each) =>
        refreshesOf(each) > refreshesOf(most) ? each : most,
      );
      const others = instances.filter((each) => each !== refresher);
      const othersRefreshes = others.map(refreshesOf);
      // Its proxy only: the first harness also holds the sandbox.
      await refresher.proxy.close();
      const stoppedAt = Date.now();
      changeEveryPoll();
      const target = await tallies();
      const remaining = fans.filter((fan) => fan.instance !== refresher);
      await everyFanSees(remaining, target, freshMs * 2 + 3000);
      const takeOverMs = Date.now() - stoppedAt;
      console.log('STREAM_TAKE_OVER_MS', takeOverMs);
      expect(others.map(refreshesOf).some((count, index) => count > othersRefreshes[index]!)).toBe(true);
      expect(takeOverMs).toBeLessThan(freshMs + 1000 + 2000);
      instances = instances.filter((each) => each !== refresher);

      // Redis paused (a stalled host): each instance refreshes on its own, and every stream still sees the change.
      redis.signal('SIGSTOP');
      try {
        changeEveryPoll();
        await everyFanSees(remaining, await tallies(), freshMs * 2 + 3000);
      } finally {
        redis.signal('SIGCONT');
      }
      for (const fan of fans) fan.reader.close();
    },
  );
});
