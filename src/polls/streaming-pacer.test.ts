import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { lastEventIdParam, pollEventName, readyEventName } from '../contracts/poll-stream-contract.ts';
import { parsePollList } from '../platform/parse.ts';
import type { Poll } from '../platform/types.ts';
import { eventSourcePollStream, type EventSourceLike } from './event-source-stream.ts';
import { createPacedLivePollStore, type LivePollState, type LivePollStore } from './live-store-core.ts';
import { ManualPageSignals } from './page-signals.ts';
import { fixtureTimes as t, pollFixture } from './poll-fixture.ts';
import { streamingPacer } from './streaming-pacer.ts';

/**
 * The browser's EventSource as far as the stream uses it: the test says what the proxy sends (`emit`) and when the
 * connection fails (`fail`). Every instance is kept, in order.
 */
class TestEventSource implements EventSourceLike {
  static opened: TestEventSource[] = [];
  readonly url: URL;
  readyState = 0;
  readonly #listeners = new Map<string, ((event: MessageEvent<string>) => void)[]>();

  constructor(url: string) {
    this.url = new URL(url);
    TestEventSource.opened.push(this);
  }

  addEventListener(type: string, listener: (event: MessageEvent<string>) => void): void {
    this.#listeners.set(type, [...(this.#listeners.get(type) ?? []), listener]);
  }

  close(): void {
    this.readyState = 2;
  }

  get closed(): boolean {
    return this.readyState === 2;
  }

  emit(type: string, data: unknown, lastEventId = ''): void {
    const event = new MessageEvent<string>(type, { data: JSON.stringify(data), lastEventId });
    for (const listener of this.#listeners.get(type) ?? []) listener(event);
  }

  fail(): void {
    for (const listener of this.#listeners.get('error') ?? []) listener(new MessageEvent('error'));
  }
}

const proxyUrl = 'https://polls.club.example';
const poll = pollFixture();
const id = poll.id;
const withVotes = (count: number): Poll => ({ ...poll, statistics: { uniqueVoteCount: count } });

let signals: ManualPageSignals;
let reads: number[];
let store: LivePollStore;
let states: LivePollState[];
let start: number;

/**
 * The page's store with the stream (`random`: the reconnect's jitter draw; `readMs`: how long a read takes), one card
 * subscribed.
 */
function pageWithStream(random = () => 1, readMs = 0): void {
  signals = new ManualPageSignals();
  reads = [];
  start = Date.now();
  store = createPacedLivePollStore(
    {
      fetchPolls: (ids) => {
        reads.push(Date.now() - start);
        expect(ids).toEqual([id]);
        const answer = Object.assign([withVotes(1)], { freshForMs: 4900 });
        return new Promise((resolve) =>
          setTimeout(() => {
            resolve(answer);
          }, readMs),
        );
      },
      signals,
    },
    streamingPacer({ open: eventSourcePollStream(proxyUrl, parsePollList, TestEventSource), random }),
  );
  states = [];
  store.subscribe(id, (state) => states.push(state));
}

const latest = () => TestEventSource.opened.at(-1)!;
const shownVotes = () => {
  const last = states.at(-1);
  return last?.status === 'ready' ? last.poll.statistics.uniqueVoteCount : undefined;
};

beforeEach(() => {
  vi.useFakeTimers({ now: t.whileOpen });
  TestEventSource.opened = [];
});
afterEach(() => {
  store.dispose();
  vi.useRealTimers();
});

describe('the page’s live stream in the store', () => {
  it('opens one stream of the page’s polls, reads nothing while it carries them, and shows each copy it brings', async () => {
    pageWithStream();
    await vi.advanceTimersByTimeAsync(10);
    expect(TestEventSource.opened).toHaveLength(1);
    expect(latest().url.pathname).toBe('/api/polls/stream');
    expect(latest().url.searchParams.getAll('ids[]')).toEqual([id]);
    latest().emit(readyEventName, { ids: [id] });
    latest().emit(pollEventName, { data: withVotes(2) }, 'v2');
    expect(shownVotes()).toBe(2);
    await vi.advanceTimersByTimeAsync(60_000);
    latest().emit(pollEventName, { data: withVotes(3) }, 'v3');
    expect(shownVotes()).toBe(3);
    // The first read (before the stream said it was ready), and none in the minute after.
    expect(reads).toEqual([0]);
    expect(TestEventSource.opened).toHaveLength(1);
  });

  it('opens no stream for a poll whose first read says it is disclosed (a list of earlier results)', async () => {
    vi.setSystemTime(t.afterDisclosure);
    // The read takes longer than the page takes to gather its cards for the stream.
    pageWithStream(() => 1, 400);
    await vi.advanceTimersByTimeAsync(1000);
    expect(shownVotes()).toBe(1);
    expect(TestEventSource.opened).toHaveLength(0);
  });

  it('falls back to one read per pace when no first event comes within 5 s, and stops reading once a stream flows', async () => {
    pageWithStream();
    // The stream opens once the card's first read has its poll; buffered by the network, nothing arrives.
    await vi.advanceTimersByTimeAsync(10);
    expect(TestEventSource.opened).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(5000);
    expect(latest().closed).toBe(true);
    // Reads once per 5 s (the open pace), never chasing the copy's age; the stream is tried again after its backoff
    // (the first reconnect waits at most 5 s: `random` 1 draws the ceiling).
    await vi.advanceTimersByTimeAsync(9000);
    expect(TestEventSource.opened).toHaveLength(2);
    latest().emit(readyEventName, { ids: [id] });
    const readsWhenLive = reads.length;
    await vi.advanceTimersByTimeAsync(30_000);
    expect(reads.slice(1).every((at, index) => at - reads[index]! >= 5000)).toBe(true);
    expect(reads).toHaveLength(readsWhenLive);
  });

  it('reconnects after a failure with backoff and full jitter, resuming from the last event id', async () => {
    pageWithStream(() => 0.5);
    await vi.advanceTimersByTimeAsync(10);
    latest().emit(readyEventName, { ids: [id] });
    latest().emit(pollEventName, { data: withVotes(2) }, 'abc123');
    latest().fail();
    expect(latest().closed).toBe(true);
    // First failure: half of the 5 s ceiling.
    await vi.advanceTimersByTimeAsync(2499);
    expect(TestEventSource.opened).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(TestEventSource.opened).toHaveLength(2);
    expect(latest().url.searchParams.get(lastEventIdParam)).toBe('abc123');
    // It fails again before it is ready: the ceiling doubles (half of 10 s).
    latest().fail();
    await vi.advanceTimersByTimeAsync(4999);
    expect(TestEventSource.opened).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(TestEventSource.opened).toHaveLength(3);
    // Meanwhile the card was read, once per pace.
    expect(reads.length).toBeGreaterThanOrEqual(2);
    latest().emit(readyEventName, { ids: [id] });
    const readsWhenLive = reads.length;
    await vi.advanceTimersByTimeAsync(20_000);
    expect(reads).toHaveLength(readsWhenLive);
  });

  it('closes the stream while the page is hidden and opens it again, from the last event id, when it is back', async () => {
    pageWithStream();
    await vi.advanceTimersByTimeAsync(10);
    latest().emit(readyEventName, { ids: [id] });
    latest().emit(pollEventName, { data: withVotes(2) }, 'v2');
    signals.setVisible(false);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(latest().closed).toBe(true);
    expect(TestEventSource.opened).toHaveLength(1);
    signals.setVisible(true);
    await vi.advanceTimersByTimeAsync(10);
    expect(TestEventSource.opened).toHaveLength(2);
    expect(latest().url.searchParams.get(lastEventIdParam)).toBe('v2');
    expect(reads).toEqual([0]);
  });
});
