// The live poll stream's edges on one proxy (memory state): its caps answer 503 `streams_full` (the page then reads),
// a page of another origin is refused, the polls-per-stream cap streams the first polls, and a reconnect with
// `Last-Event-ID` is sent only the polls whose copy it does not have.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  pollEventName,
  readyEventName,
  versionsOfEventId,
} from '../../src/contracts/poll-stream-contract.ts';
import { pollStreamPath } from '../../src/contracts/poll-stream-contract.ts';
import { privateAnswerPolicy } from '../../src/proxy/cache-policy.ts';
import { pollStreamHubOf } from '../../src/proxy/poll-stream/poll-stream-route.ts';
import type { Poll } from '../../src/platform/types.ts';
import { openPollIdsFromProxy } from '../support/open-poll.ts';
import { readEventStream, type EventStreamReader, type ServerSentEvent } from '../support/sse-reader.ts';
import { pageOrigin, startHarness, type Harness } from './proxy-harness.ts';

let harness: Harness;
let pollIds: string[];

beforeAll(async () => {
  harness = await startHarness({ streamsPerClient: 2, streamPollsMax: 2, pollCacheSeconds: 1 });
  harness.sandbox.sandbox.simulation.setRate(0);
  pollIds = await openPollIdsFromProxy(harness.proxy.url, 3);
  expect(pollIds).toHaveLength(3);
}, 30_000);

afterAll(() => harness.close());

const streamUrl = (ids: readonly string[]) =>
  `${harness.proxy.url}${pollStreamPath}?${ids.map((id) => `ids[]=${id}`).join('&')}`;

/** Resolves with the first event `accept` accepts, among those read so far and those to come. */
function eventWhere(reader: EventStreamReader, accept: (event: ServerSentEvent) => boolean) {
  return new Promise<ServerSentEvent>((resolve) => {
    const found = reader.events.find(accept);
    if (found) resolve(found);
    reader.onEvent((event) => {
      if (accept(event)) resolve(event);
    });
  });
}

const pollOf = (data: string) => (JSON.parse(data) as { data: Poll }).data;

describe('the live poll stream’s limits', () => {
  it('refuses a stream past the per-client cap with 503 streams_full, and takes one again once a stream ends', async () => {
    const open = [
      await readEventStream(streamUrl(pollIds.slice(0, 1))),
      await readEventStream(streamUrl(pollIds.slice(0, 1))),
    ];
    const refused = await fetch(streamUrl(pollIds.slice(0, 1)), { headers: { Origin: pageOrigin } });
    expect(refused.status).toBe(503);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('streams_full');
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.headers.get('cache-control')).toBe(privateAnswerPolicy);
    expect(refused.headers.get('access-control-allow-origin')).toBe(pageOrigin);
    open[0]!.close();
    const hub = pollStreamHubOf(harness.proxy.proxy.runtime)!;
    await expect.poll(() => hub.streams).toBe(1);
    const again = await readEventStream(streamUrl(pollIds.slice(0, 1)));
    expect(again.response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(again.response.headers.get('cache-control')).toContain('no-store');
    again.close();
    open[1]!.close();
    await expect.poll(() => hub.streams).toBe(0);
  });

  it('refuses a page of another origin and a stream of no poll, and holds nothing for a HEAD', async () => {
    const foreign = await fetch(streamUrl(pollIds), { headers: { Origin: 'https://elsewhere.example' } });
    expect(foreign.status).toBe(403);
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    const none = await fetch(`${harness.proxy.url}${pollStreamPath}`);
    expect(none.status).toBe(400);
    // A HEAD holds no stream.
    const head = await fetch(streamUrl(pollIds), { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(pollStreamHubOf(harness.proxy.proxy.runtime)!.streams).toBe(0);
  });

  it('streams the first polls up to its cap and names them in its first event', async () => {
    const reader = await readEventStream(streamUrl(pollIds));
    const ready = await eventWhere(reader, (event) => event.event === readyEventName);
    expect((JSON.parse(ready.data) as { ids: string[] }).ids).toEqual(pollIds.slice(0, 2));
    reader.close();
  });

  it('sends a reconnect with Last-Event-ID only the polls whose copy it lacks', async () => {
    const [first, second] = pollIds as [string, string];
    const reader = await readEventStream(streamUrl([first, second]));
    const bothSent = await eventWhere(
      reader,
      (event) => event.event === pollEventName && !versionsOfEventId(event.id, 2).includes(undefined),
    );
    reader.close();
    // The reconnect has the first poll's copy, not the second's.
    const [firstVersion] = versionsOfEventId(bothSent.id, 2);
    const resumed = await readEventStream(streamUrl([first, second]), {
      headers: { 'Last-Event-ID': `${firstVersion!}.-` },
    });
    const sent = await eventWhere(resumed, (event) => event.event === pollEventName);
    expect(pollOf(sent.data).id.toLowerCase()).toBe(second);
    // A change to the first poll is sent as it happens.
    const { polls } = harness.sandbox.sandbox.state;
    const stored = polls.published().find((poll) => poll.id.toLowerCase() === first)!;
    polls.recordSimulatedVote(stored, stored.answers[0]!.id, `limits-fan-${crypto.randomUUID()}`, 2);
    const changed = await eventWhere(
      resumed,
      (event) => event.event === pollEventName && pollOf(event.data).id.toLowerCase() === first,
    );
    expect(resumed.events.filter((event) => event.event === pollEventName).map((event) => event.id)).toEqual([
      sent.id,
      changed.id,
    ]);
    resumed.close();
  });
});
