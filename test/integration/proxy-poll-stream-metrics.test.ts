// The live poll streams on `/metrics` (one proxy, memory state): the gauge of open streams and watched polls follows
// streams as they open and close, each event sent is counted, and a stream refused at a cap is counted by its cap.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pollEventName, pollStreamPath } from '../../src/contracts/poll-stream-contract.ts';
import { openPollIdsFromProxy } from '../support/open-poll.ts';
import { readEventStream, type EventStreamReader } from '../support/sse-reader.ts';
import { pageOrigin, startHarness, type Harness } from './proxy-harness.ts';

const metricsToken = 'metrics-token-for-stream-tests-0123';
let harness: Harness;
let pollId: string;

beforeAll(async () => {
  harness = await startHarness({
    metricsToken,
    streamsPerInstance: 3,
    streamsPerClient: 2,
    clientAddressHeader: 'X-Real-IP',
    pollCacheSeconds: 1,
  });
  harness.sandbox.sandbox.simulation.setRate(0);
  [pollId = ''] = await openPollIdsFromProxy(harness.proxy.url, 1);
}, 30_000);

afterAll(() => harness.close());

const streamUrl = () => `${harness.proxy.url}${pollStreamPath}?ids[]=${pollId}`;
const fanHeaders = (address: string) => ({ Origin: pageOrigin, 'X-Real-IP': address });

/** A stream of the poll for the fan at `address`, once its first copy came. */
async function openStream(address: string): Promise<EventStreamReader> {
  const reader = await readEventStream(streamUrl(), { headers: fanHeaders(address) });
  await pollEvents(reader, 1);
  return reader;
}

/** Resolves once `reader` has read `count` poll events. */
function pollEvents(reader: EventStreamReader, count: number): Promise<void> {
  const enough = () => reader.events.filter((event) => event.event === pollEventName).length >= count;
  return new Promise((resolve) => {
    if (enough()) resolve();
    reader.onEvent(() => {
      if (enough()) resolve();
    });
  });
}

/** The value of one series in a `/metrics` scrape (the series as written: name and labels). */
async function scraped(series: string): Promise<number | undefined> {
  const answer = await fetch(`${harness.proxy.url}/metrics`, {
    headers: { Authorization: `Bearer ${metricsToken}` },
  });
  expect(answer.status).toBe(200);
  const line = (await answer.text()).split('\n').find((text) => text.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('the live poll streams on /metrics', () => {
  it('counts open streams, events sent and streams refused at each cap', async () => {
    expect(await scraped('fan_polls_poll_streams_open')).toBe(0);
    const first = await openStream('10.0.0.1');
    const second = await openStream('10.0.0.1');
    expect(await scraped('fan_polls_poll_streams_open')).toBe(2);
    expect(await scraped('fan_polls_poll_streams_watched_polls')).toBe(1);
    expect(await scraped('fan_polls_poll_stream_events_total')).toBe(2);

    // The client address's cap, then the instance's.
    const pastClientCap = await fetch(streamUrl(), { headers: fanHeaders('10.0.0.1') });
    expect(pastClientCap.status).toBe(503);
    await pastClientCap.body?.cancel();
    const third = await openStream('10.0.0.2');
    const pastInstanceCap = await fetch(streamUrl(), { headers: fanHeaders('10.0.0.2') });
    expect(pastInstanceCap.status).toBe(503);
    await pastInstanceCap.body?.cancel();
    expect(await scraped('fan_polls_poll_streams_open')).toBe(3);
    expect(await scraped('fan_polls_poll_streams_refused_total{cap="client"}')).toBe(1);
    expect(await scraped('fan_polls_poll_streams_refused_total{cap="instance"}')).toBe(1);
    expect(await scraped('fan_polls_refusals_total{reason="streams_full"}')).toBe(2);

    // A change at the platform: one event down each open stream, from one refresh.
    const refreshesBefore = (await scraped('fan_polls_poll_stream_refreshes_total')) ?? 0;
    expect(refreshesBefore).toBeGreaterThanOrEqual(1);
    const { polls } = harness.sandbox.sandbox.state;
    const stored = polls.published().find((poll) => poll.id.toLowerCase() === pollId)!;
    polls.recordSimulatedVote(stored, stored.answers[0]!.id, `metrics-fan-${crypto.randomUUID()}`, 1);
    await Promise.all([first, second, third].map((reader) => pollEvents(reader, 2)));
    expect(await scraped('fan_polls_poll_stream_events_total')).toBe(6);
    expect(await scraped('fan_polls_poll_stream_refreshes_total')).toBeGreaterThan(refreshesBefore);

    // Streams the pages close leave the gauges.
    first.close();
    await expect.poll(() => scraped('fan_polls_poll_streams_open')).toBe(2);
    second.close();
    third.close();
    await expect.poll(() => scraped('fan_polls_poll_streams_open')).toBe(0);
    expect(await scraped('fan_polls_poll_streams_watched_polls')).toBe(0);
    expect(await scraped('fan_polls_poll_stream_events_total')).toBe(6);
  });
});
