import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PlatformError } from '../platform/errors.ts';
import type { Poll } from '../platform/types.ts';
import { createLivePollStore, type LivePollState, type LivePollStoreOptions } from './live-store.ts';
import { ManualPageSignals } from './page-signals.ts';
import { answerFixture, fixtureTimes as t, pollFixture } from './poll-fixture.ts';

/** A poll source over a map that counts requests and can be made to fail. */
function fakeSource(polls: Poll[]) {
  const byId = new Map(polls.map((poll) => [poll.id, poll]));
  const requests: string[][] = [];
  let failWith: Error | undefined;
  const fetchPolls = (ids: readonly string[]): Promise<readonly Poll[]> => {
    requests.push([...ids]);
    if (failWith !== undefined) return Promise.reject(failWith);
    return Promise.resolve(ids.flatMap((id) => (byId.has(id) ? [structuredClone(byId.get(id)!)] : [])));
  };
  return {
    fetchPolls,
    requests,
    set: (poll: Poll) => byId.set(poll.id, poll),
    failWith: (error: Error | undefined) => {
      failWith = error;
    },
  };
}

const openPoll = (id: string) => pollFixture({ id });
const seconds = (count: number) => vi.advanceTimersByTimeAsync(count * 1000);

function recorder() {
  const states: LivePollState[] = [];
  return { states, listener: (state: LivePollState) => states.push(state) };
}

let signals: ManualPageSignals;
const stores: { dispose(): void }[] = [];
function store(fetchPolls: LivePollStoreOptions['fetchPolls'], options: Partial<LivePollStoreOptions> = {}) {
  const created = createLivePollStore({ fetchPolls, signals, random: () => 1, ...options });
  stores.push(created);
  return created;
}

beforeEach(() => {
  vi.useFakeTimers({ now: t.whileOpen });
  signals = new ManualPageSignals();
});
afterEach(() => {
  for (const created of stores.splice(0)) created.dispose();
  vi.useRealTimers();
});

describe('live poll store: subscribing', () => {
  it('tells a new subscriber "loading" at once, then the poll after one read', async () => {
    const source = fakeSource([openPoll('p1')]);
    const { states, listener } = recorder();
    store(source.fetchPolls).subscribe('p1', listener);
    expect(states).toEqual([{ status: 'loading' }]);
    await seconds(0);
    expect(source.requests).toEqual([['p1']]);
    expect(states[1]).toMatchObject({ status: 'ready', poll: { id: 'p1' }, fetchedAt: t.whileOpen });
  });

  it('gives a late subscriber the current state at once, without another read', async () => {
    const source = fakeSource([openPoll('p1')]);
    const live = store(source.fetchPolls);
    live.subscribe('p1', () => undefined);
    await seconds(1);
    const late = recorder();
    live.subscribe('p1', late.listener);
    expect(late.states).toEqual([
      expect.objectContaining({ status: 'ready', poll: expect.objectContaining({ id: 'p1' }) }),
    ]);
    await seconds(0);
    expect(source.requests).toHaveLength(1);
  });

  it('reads many cards of one poll, and many polls, in one request per tick', async () => {
    const ids = Array.from({ length: 50 }, (_, index) => `p${index}`);
    const source = fakeSource(ids.map(openPoll));
    const live = store(source.fetchPolls);
    for (let card = 0; card < 50; card += 1) live.subscribe('p0', () => undefined);
    for (const id of ids) live.subscribe(id, () => undefined);
    await seconds(0);
    expect(source.requests).toEqual([ids]);
    await seconds(5);
    expect(source.requests).toHaveLength(2);
    expect(source.requests[1]).toEqual(ids);
  });

  it('splits a tick into chunks of at most chunkSize ids', async () => {
    const ids = Array.from({ length: 120 }, (_, index) => `p${index}`);
    const source = fakeSource(ids.map(openPoll));
    const live = store(source.fetchPolls);
    for (const id of ids) live.subscribe(id, () => undefined);
    await seconds(0);
    expect(source.requests.map((request) => request.length)).toEqual([50, 50, 20]);
    expect(source.requests.flat()).toEqual(ids);
  });

  it('brings a poll subscribed later into step with the others', async () => {
    const source = fakeSource([openPoll('a'), openPoll('b')]);
    const live = store(source.fetchPolls);
    live.subscribe('a', () => undefined);
    await seconds(2);
    live.subscribe('b', () => undefined);
    await seconds(0); // b is new: read at once, alone
    await seconds(30);
    // a at 5, b rides along (due at 7, within half its pace), then both together every 5 s.
    expect(source.requests).toEqual([
      ['a'],
      ['b'],
      ['a', 'b'],
      ['a', 'b'],
      ['a', 'b'],
      ['a', 'b'],
      ['a', 'b'],
      ['a', 'b'],
    ]);
  });

  it('stops reading a poll when its last listener leaves, and keeps reading the others', async () => {
    const source = fakeSource([openPoll('a'), openPoll('b')]);
    const live = store(source.fetchPolls);
    const leaveA1 = live.subscribe('a', () => undefined);
    const leaveA2 = live.subscribe('a', () => undefined);
    const leaveB = live.subscribe('b', () => undefined);
    await seconds(0);
    leaveA1();
    await seconds(5);
    expect(source.requests.at(-1)).toEqual(['a', 'b']);
    leaveA2();
    leaveA2(); // twice is harmless
    await seconds(5);
    expect(source.requests.at(-1)).toEqual(['b']);
    leaveB();
    const count = source.requests.length;
    await seconds(60);
    expect(source.requests).toHaveLength(count);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('live poll store: listeners hear real changes only', () => {
  it('stays silent when a read returns an equal poll in a new object, and speaks when it changes', async () => {
    const source = fakeSource([openPoll('p1')]);
    const { states, listener } = recorder();
    store(source.fetchPolls).subscribe('p1', listener);
    await seconds(0);
    await seconds(20);
    expect(states.map((state) => state.status)).toEqual(['loading', 'ready']);
    source.set(pollFixture({ id: 'p1', answers: [answerFixture({ id: 'a1', totalVoteTokensUsed: 3 })] }));
    await seconds(5);
    expect(states).toHaveLength(3);
    expect(states[2]).toMatchObject({ status: 'ready', poll: { answers: [{ totalVoteTokensUsed: 3 }] } });
  });

  it('keeps telling the other listeners when one throws', async () => {
    const source = fakeSource([openPoll('p1')]);
    const reported: unknown[] = [];
    const live = store(source.fetchPolls, { onListenerError: (error) => reported.push(error) });
    live.subscribe('p1', (state) => {
      if (state.status === 'ready') throw new Error('card bug');
    });
    const { states, listener } = recorder();
    live.subscribe('p1', listener);
    await seconds(0);
    expect(states.map((state) => state.status)).toEqual(['loading', 'ready']);
    expect(reported).toEqual([new Error('card bug')]);
  });
});

describe('live poll store: pace follows the phase', () => {
  async function requestTimes(poll: Poll, start: number, minutes: number) {
    vi.setSystemTime(start);
    const source = fakeSource([poll]);
    const times: number[] = [];
    store((ids) => {
      times.push(Date.now() - start);
      return source.fetchPolls(ids);
    }).subscribe(poll.id, () => undefined);
    await seconds(minutes * 60);
    return times;
  }

  it('reads an open poll every 5 seconds', async () => {
    const times = await requestTimes(openPoll('p'), t.whileOpen, 1);
    expect(times).toEqual([0, 5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 55, 60].map((s) => s * 1000));
  });

  it('reads an upcoming poll every 30 seconds and at the opening instant, then at the open pace', async () => {
    const times = await requestTimes(openPoll('p'), t.openAt - 70_000, 1.25);
    expect(times).toEqual([0, 30_000, 60_000, 70_000, 75_000]);
  });

  it('reads a closed poll every 5 minutes and at the disclosure, then never again', async () => {
    const times = await requestTimes(openPoll('p'), t.closeAt + 60_000, 120);
    // Closed at 14:01, disclosed at 15:00: every 5 minutes until 14:56, then at 15:00, then never.
    expect(times).toEqual([...Array.from({ length: 12 }, (_, index) => index * 300_000), 3_540_000]);
  });

  it('reads a disclosed or cancelled poll once', async () => {
    expect(await requestTimes(openPoll('p'), t.afterDisclosure, 60)).toEqual([0]);
    expect(await requestTimes(pollFixture({ id: 'c', status: 'cancelled' }), t.whileOpen, 60)).toEqual([0]);
  });

  it('reads a poll it cannot place every minute', async () => {
    expect(await requestTimes(pollFixture({ id: 'u', closeAt: 'soon' }), t.whileOpen, 3)).toEqual([
      0, 60_000, 120_000, 180_000,
    ]);
  });
});

describe('live poll store: hidden and offline pages', () => {
  it('reads nothing while hidden and catches up at once when visible again', async () => {
    const source = fakeSource([openPoll('p1')]);
    const live = store(source.fetchPolls);
    live.subscribe('p1', () => undefined);
    await seconds(0);
    signals.setVisible(false);
    await seconds(600);
    expect(source.requests).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(0);
    signals.setVisible(true);
    await seconds(0);
    expect(source.requests).toHaveLength(2);
  });

  it('does not read for a card subscribed while the page is hidden until it shows', async () => {
    signals.setVisible(false);
    const source = fakeSource([openPoll('p1')]);
    const { states, listener } = recorder();
    store(source.fetchPolls).subscribe('p1', listener);
    await seconds(60);
    expect(source.requests).toHaveLength(0);
    expect(states).toEqual([{ status: 'loading' }]);
  });

  it('reads nothing while offline and tries at once when back online, despite a backoff', async () => {
    const source = fakeSource([openPoll('p1')]);
    const live = store(source.fetchPolls);
    live.subscribe('p1', () => undefined);
    source.failWith(new TypeError('fetch failed'));
    await seconds(0);
    await seconds(5); // second failure: the next wait is up to 10 s
    signals.setOnline(false);
    await seconds(600);
    expect(source.requests).toHaveLength(2);
    source.failWith(undefined);
    signals.setOnline(true);
    await seconds(0);
    expect(source.requests).toHaveLength(3);
  });
});

describe('live poll store: errors', () => {
  it('matches returned polls to subscribed ids without case (sources lower-case uuids)', async () => {
    const id = '0B7A3C1E-4D5F-4A6B-8C7D-9E0F1A2B3C4D';
    const { states, listener } = recorder();
    store((ids) => Promise.resolve(ids.map((asked) => openPoll(asked.toLowerCase())))).subscribe(
      id,
      listener,
    );
    await seconds(0);
    expect(states[1]).toMatchObject({ status: 'ready', poll: { id: id.toLowerCase() } });
  });

  it('turns ids the platform did not return into not_found, and keeps the others', async () => {
    const source = fakeSource([openPoll('here')]);
    const live = store(source.fetchPolls);
    const missing = recorder();
    const here = recorder();
    live.subscribe('gone', missing.listener);
    live.subscribe('here', here.listener);
    await seconds(0);
    expect(source.requests).toEqual([['gone', 'here']]);
    const state = missing.states[1];
    expect(state?.status === 'error' && state.error).toMatchObject({ code: 'not_found' });
    expect(state && 'poll' in state).toBe(false);
    expect(here.states[1]?.status).toBe('ready');
  });

  it('keeps the last good poll in the error state and recovers with a ready state', async () => {
    const source = fakeSource([openPoll('p1')]);
    const { states, listener } = recorder();
    store(source.fetchPolls).subscribe('p1', listener);
    await seconds(0);
    source.failWith(new TypeError('fetch failed'));
    await seconds(5);
    const failed = states[2];
    expect(failed?.status).toBe('error');
    if (failed?.status !== 'error') return;
    expect(failed.error).toBeInstanceOf(PlatformError);
    expect(failed.error.code).toBe('network');
    expect(failed.poll?.id).toBe('p1');
    await seconds(5); // fails again the same way: nothing new to hear
    expect(states).toHaveLength(3);
    source.failWith(undefined);
    await seconds(60);
    expect(states.at(-1)?.status).toBe('ready');
    expect(states).toHaveLength(4);
  });

  it('backs off exponentially up to the cap, jittered, never below the floor', async () => {
    const draws = [1, 1, 1, 1, 1, 1, 1, 0.5, 0];
    const source = fakeSource([openPoll('p1')]);
    const times: number[] = [];
    store(
      (ids) => {
        times.push(Date.now() - t.whileOpen);
        return source.fetchPolls(ids);
      },
      { random: () => draws.shift() ?? 1 },
    ).subscribe('p1', () => undefined);
    source.failWith(new Error('boom'));
    await seconds(1000);
    const waits = times.slice(1, 10).map((time, index) => (time - (times[index] ?? 0)) / 1000);
    expect(waits).toEqual([5, 10, 20, 40, 80, 120, 120, 60, 5]);
  });

  it('waits for Retry-After even when the backoff is shorter, also on refresh()', async () => {
    const source = fakeSource([openPoll('p1')]);
    const live = store(source.fetchPolls, { random: () => 0 });
    live.subscribe('p1', () => undefined);
    source.failWith(
      new PlatformError('throttled', 'Message throttled out', {
        status: 429,
        retryAt: new Date(t.whileOpen + 60_000),
      }),
    );
    await seconds(0);
    live.refresh();
    await seconds(59);
    expect(source.requests).toHaveLength(1);
    source.failWith(undefined);
    await seconds(1);
    expect(source.requests).toHaveLength(2);
  });

  it('reports a source that answers something other than a list as malformed_response', async () => {
    const { states, listener } = recorder();
    store(() => Promise.resolve({} as unknown as Poll[])).subscribe('p1', listener);
    await seconds(0);
    const state = states[1];
    expect(state?.status === 'error' && state.error.code).toBe('malformed_response');
  });
});

describe('live poll store: refresh and dispose', () => {
  it('refresh(id) reads that poll now, even a settled one; refresh() reads every watched poll', async () => {
    const source = fakeSource([openPoll('open'), pollFixture({ id: 'gone', status: 'cancelled' })]);
    const live = store(source.fetchPolls);
    live.subscribe('open', () => undefined);
    live.subscribe('gone', () => undefined);
    await seconds(1);
    live.refresh('gone');
    await seconds(0);
    expect(source.requests).toEqual([['open', 'gone'], ['gone']]);
    live.refresh();
    await seconds(0);
    expect(source.requests.at(-1)).toEqual(['open', 'gone']);
  });

  it('dispose stops the timer, the page signals and late answers', async () => {
    let answer: (polls: Poll[]) => void = () => undefined;
    const { states, listener } = recorder();
    const live = store(() => new Promise((resolve) => (answer = resolve)));
    live.subscribe('p1', listener);
    await seconds(0);
    live.dispose();
    answer([openPoll('p1')]);
    await seconds(60);
    expect(states).toEqual([{ status: 'loading' }]);
    expect(signals.listenerCount).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
    expect(() => live.subscribe('p1', listener)).toThrow();
  });
});
