// The live poll stream on the Workers runtime (the edge bundle on workerd): every stream is held by the one poll
// streams' Durable Object, which sends each poll's current copy at once and every change after it to every stream,
// reads the poll from the platform once per window for all of them (counted on the way to the sandbox), with the
// Node proxy's checks (a page of another origin refused) and `Last-Event-ID`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pollEventName, pollStreamPath, readyEventName } from '../../src/contracts/poll-stream-contract.ts';
import { closeServer, listenOnLoopback, type LoopbackServer } from '../../src/node/loopback-server.ts';
import type { Poll } from '../../src/platform/types.ts';
import { openPollIdsFromProxy } from '../support/open-poll.ts';
import { readEventStream, type EventStreamReader } from '../support/sse-reader.ts';
import { buildEdgeBundle, startWorkerd, type RunningWorkerd } from '../support/workerd.ts';
import { edgeEnvironment } from './edge-harness.ts';
import { pageOrigin, startHarness, type Harness } from './proxy-harness.ts';

let node: Harness;
let workerd: RunningWorkerd;
let pollId: string;
/** The platform's resource API as workerd reaches it: the sandbox's, counting the paths read. */
let countedApi: LoopbackServer;
const platformReads: string[] = [];

beforeAll(async () => {
  const bundle = await buildEdgeBundle();
  node = await startHarness();
  node.sandbox.sandbox.simulation.setRate(0);
  countedApi = await listenOnLoopback((request, env) => {
    platformReads.push(new URL(request.url).pathname);
    return node.sandbox.sandbox.api.fetch(request, env);
  }, 0);
  workerd = await startWorkerd(
    bundle,
    edgeEnvironment(node, { FAN_POLLS_POLL_CACHE_SECONDS: '1', FAN_POLLS_PLATFORM_API_URL: countedApi.url }),
  );
  [pollId = ''] = await openPollIdsFromProxy(node.proxy.url, 1);
}, 60_000);

afterAll(async () => {
  // workerd lets its requests end before it stops, and hears that a page left a stream only when it next writes to
  // it: a change makes it write to every stream (within the 1 s window), so the streams the tests closed end.
  changeThePoll();
  await workerd.close();
  await closeServer(countedApi.server);
  await node.close();
});

/** One more vote at the platform in the streamed poll. */
function changeThePoll(): void {
  const { polls } = node.sandbox.sandbox.state;
  const stored = polls.published().find((poll) => poll.id.toLowerCase() === pollId)!;
  polls.recordSimulatedVote(stored, stored.answers[0]!.id, `edge-stream-fan-${crypto.randomUUID()}`, 1);
}

const streamUrl = () => `${workerd.url}${pollStreamPath}?ids[]=${pollId}`;
const pollOf = (data: string) => (JSON.parse(data) as { data: Poll }).data;

/** Resolves once `reader` has read `count` poll events. */
function pollEvents(reader: EventStreamReader, count: number): Promise<Poll[]> {
  const polls = () =>
    reader.events.filter((event) => event.event === pollEventName).map((event) => pollOf(event.data));
  return new Promise((resolve) => {
    if (polls().length >= count) resolve(polls());
    reader.onEvent(() => {
      if (polls().length >= count) resolve(polls());
    });
  });
}

const votesOf = (poll: Poll) => poll.statistics.uniqueVoteCount;

describe('the live poll stream on workerd', () => {
  it('sends every stream the poll’s copy at once, then a change at the platform', async () => {
    const headers = { Origin: pageOrigin };
    const streams = [
      await readEventStream(streamUrl(), { headers }),
      await readEventStream(streamUrl(), { headers }),
    ];
    for (const stream of streams) {
      expect(stream.response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
      expect(stream.response.headers.get('access-control-allow-origin')).toBe(pageOrigin);
    }
    const [first] = await pollEvents(streams[0]!, 1);
    await pollEvents(streams[1]!, 1);
    expect(streams[0]!.events[0]?.event).toBe(readyEventName);
    expect(first!.id.toLowerCase()).toBe(pollId);

    changeThePoll();
    for (const stream of streams) {
      const [before, after] = await pollEvents(stream, 2);
      expect(votesOf(after!)).toBe(votesOf(before!) + 1);
      stream.close();
    }
  });

  it('reads the poll from the platform once per window for all its streams', async () => {
    const streams = await Promise.all(
      Array.from({ length: 5 }, () => readEventStream(streamUrl(), { headers: { Origin: pageOrigin } })),
    );
    await Promise.all(streams.map((stream) => pollEvents(stream, 1)));
    const readsOfPoll = () => platformReads.filter((path) => path.endsWith(`/poll/${pollId}`)).length;
    const readsBefore = readsOfPoll();
    const startedAt = Date.now();
    const changes = 3;
    for (let change = 1; change <= changes; change += 1) {
      changeThePoll();
      await Promise.all(streams.map((stream) => pollEvents(stream, 1 + change)));
    }
    const windows = (Date.now() - startedAt) / 1000;
    expect(readsOfPoll() - readsBefore).toBeLessThanOrEqual(Math.ceil(windows) + 1);
    for (const stream of streams) stream.close();
  });

  it('refuses a page of another origin, and sends a reconnect that has the copy nothing until a change', async () => {
    const foreign = await fetch(streamUrl(), { headers: { Origin: 'https://elsewhere.example' } });
    expect(foreign.status).toBe(403);
    await foreign.body?.cancel();

    const stream = await readEventStream(streamUrl(), { headers: { Origin: pageOrigin } });
    await pollEvents(stream, 1);
    const lastId = stream.events.at(-1)!.id!;
    stream.close();
    const resumed = await readEventStream(streamUrl(), {
      headers: { Origin: pageOrigin, 'Last-Event-ID': lastId },
    });
    changeThePoll();
    const [changed] = await pollEvents(resumed, 1);
    expect(
      resumed.events.filter((event) => event.event === pollEventName).map((event) => event.id),
    ).not.toContain(lastId);
    expect(changed!.id.toLowerCase()).toBe(pollId);
    resumed.close();
  });
});
