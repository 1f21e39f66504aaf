import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PlatformError } from '../../src/platform/errors.ts';
import type { Poll } from '../../src/platform/types.ts';
import { createLivePollStore } from '../../src/polls/live-store.ts';
import type { FirstRead, LivePollState, LivePollStore } from '../../src/polls/live-store-core.ts';
import { ManualPageSignals } from '../../src/polls/page-signals.ts';
import { fixtureTimes as t, pollFixture } from '../../src/polls/poll-fixture.ts';
import { createFirstReadStore, type FirstReadResult } from './first-read-store.ts';

function source(polls: Poll[]) {
  const requests: string[][] = [];
  let fail = false;
  return {
    requests,
    failNext: () => (fail = true),
    fetchPolls: (ids: readonly string[]): Promise<readonly Poll[]> => {
      requests.push([...ids]);
      if (fail) {
        fail = false;
        return Promise.reject(new TypeError('Failed to fetch'));
      }
      return Promise.resolve(
        polls.filter((poll) => ids.includes(poll.id)).map((poll) => structuredClone(poll)),
      );
    },
  };
}

/** The live part as the widget starts it: the real live store over the same source, seeded with the first read. */
function liveOver(polls: ReturnType<typeof source>) {
  const started: FirstReadResult[] = [];
  const startLive = (firstRead: FirstReadResult): Promise<LivePollStore> => {
    started.push(firstRead);
    const seed: FirstRead =
      'polls' in firstRead
        ? { ids: firstRead.ids, at: firstRead.at, polls: firstRead.polls }
        : {
            ids: firstRead.ids,
            at: firstRead.at,
            error: new PlatformError('network', String(firstRead.failure)),
          };
    return Promise.resolve(
      createLivePollStore({ fetchPolls: polls.fetchPolls, seed, signals: new ManualPageSignals() }),
    );
  };
  return { started, startLive };
}

const seconds = (count: number) => vi.advanceTimersByTimeAsync(count * 1000);
const stores: { dispose(): void }[] = [];
const statuses = (states: LivePollState[]) => states.map((state) => state.status);

beforeEach(() => {
  vi.useFakeTimers({ now: t.whileOpen });
});
afterEach(() => {
  for (const store of stores.splice(0)) store.dispose();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('first-read store (script-tag widget)', () => {
  it('reads the page’s polls in one request and shows them before the live store has loaded', async () => {
    const polls = source([pollFixture({ id: 'a' }), pollFixture({ id: 'b' })]);
    const startLive = vi.fn(() => new Promise<LivePollStore>(() => undefined));
    const store = createFirstReadStore(polls.fetchPolls, startLive);
    stores.push(store);
    const states: LivePollState[] = [];
    store.subscribe('a', (state) => states.push(state));
    store.subscribe('b', () => undefined);
    await seconds(0);
    expect(polls.requests).toEqual([['a', 'b']]);
    expect(statuses(states)).toEqual(['loading', 'ready']);
    expect(startLive).toHaveBeenCalledTimes(1);
    expect(startLive.mock.calls[0]).toMatchObject([{ ids: ['a', 'b'], polls: [{ id: 'a' }, { id: 'b' }] }]);
    await seconds(60);
    expect(polls.requests).toHaveLength(1);
  });

  it('hands every subscription to the live store, which goes on from the first read without reading twice', async () => {
    const polls = source([pollFixture({ id: 'a' })]);
    const live = liveOver(polls);
    const store = createFirstReadStore(polls.fetchPolls, live.startLive);
    stores.push(store);
    const states: LivePollState[] = [];
    store.subscribe('a', (state) => states.push(state));
    await seconds(0);
    expect(live.started).toHaveLength(1);
    expect(polls.requests).toEqual([['a']]);
    // The hand-over itself tells the card nothing new: it is not rendered again.
    expect(statuses(states)).toEqual(['loading', 'ready']);
    // Open polls: the live store's pace (5 s) from the first read.
    await seconds(4);
    expect(polls.requests).toHaveLength(1);
    await seconds(2);
    expect(polls.requests).toHaveLength(2);
    // Loading, then the poll: the hand-over shows no skeleton again.
    expect(statuses(states)[0]).toBe('loading');
    expect(statuses(states).slice(1)).toEqual(
      statuses(states)
        .slice(1)
        .map(() => 'ready'),
    );
    expect(states.length).toBeGreaterThan(1);
  });

  it('stops a card’s updates when it unsubscribes, before or after the hand-over', async () => {
    const polls = source([pollFixture({ id: 'a' }), pollFixture({ id: 'b' })]);
    const live = liveOver(polls);
    const store = createFirstReadStore(polls.fetchPolls, live.startLive);
    stores.push(store);
    const heardA: LivePollState[] = [];
    const heardB: LivePollState[] = [];
    const stopA = store.subscribe('a', (state) => heardA.push(state));
    const stopB = store.subscribe('b', (state) => heardB.push(state));
    stopA();
    await seconds(0);
    expect(heardA).toEqual([{ status: 'loading' }]);
    stopB();
    const heard = heardB.length;
    polls.requests.length = 0;
    await seconds(60);
    expect(heardB).toHaveLength(heard);
    expect(polls.requests).toEqual([]);
  });

  it('passes subscriptions made after the hand-over straight to the live store', async () => {
    const polls = source([pollFixture({ id: 'a' }), pollFixture({ id: 'c' })]);
    const live = liveOver(polls);
    const store = createFirstReadStore(polls.fetchPolls, live.startLive);
    stores.push(store);
    store.subscribe('a', () => undefined);
    await seconds(0);
    const states: LivePollState[] = [];
    store.subscribe('c', (state) => states.push(state));
    await seconds(0);
    expect(statuses(states)).toEqual(['loading', 'ready']);
    expect(live.started).toHaveLength(1);
  });

  it('gives the live store a failed first read, and the live store shows the error', async () => {
    const polls = source([pollFixture({ id: 'a' })]);
    polls.failNext();
    const live = liveOver(polls);
    const store = createFirstReadStore(polls.fetchPolls, live.startLive);
    stores.push(store);
    const states: LivePollState[] = [];
    store.subscribe('a', (state) => states.push(state));
    await seconds(0);
    expect(live.started[0]).toMatchObject({ ids: ['a'], failure: expect.any(TypeError) });
    expect(states.at(-1)).toMatchObject({ status: 'error', error: { code: 'network' } });
    await seconds(120);
    expect(states.at(-1)?.status).toBe('ready');
  });

  it('shows an error when the live store cannot load after a failed read, and a retry reads and loads again', async () => {
    const polls = source([pollFixture({ id: 'a' })]);
    polls.failNext();
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const startLive = vi.fn(() => Promise.reject(new Error('offline')));
    const store = createFirstReadStore(polls.fetchPolls, startLive);
    stores.push(store);
    const states: LivePollState[] = [];
    store.subscribe('a', (state) => states.push(state));
    await seconds(0);
    expect(states.at(-1)).toMatchObject({ status: 'error', error: { code: 'network' } });
    expect(logged).toHaveBeenCalledTimes(1);
    store.refresh('a');
    await seconds(0);
    expect(polls.requests).toHaveLength(2);
    expect(startLive).toHaveBeenCalledTimes(2);
    expect(states.at(-1)?.status).toBe('ready');
  });

  it('keeps showing polls it read when the live store cannot load', async () => {
    const polls = source([pollFixture({ id: 'a' })]);
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const store = createFirstReadStore(polls.fetchPolls, () => Promise.reject(new Error('offline')));
    stores.push(store);
    const states: LivePollState[] = [];
    store.subscribe('a', (state) => states.push(state));
    await seconds(0);
    expect(statuses(states)).toEqual(['loading', 'ready']);
  });

  it('a listener that throws does not keep the others from hearing', async () => {
    const polls = source([pollFixture({ id: 'a' })]);
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const store = createFirstReadStore(polls.fetchPolls, () => new Promise(() => undefined));
    stores.push(store);
    store.subscribe('a', () => {
      throw new Error('card bug');
    });
    const states: LivePollState[] = [];
    store.subscribe('a', (state) => states.push(state));
    await seconds(0);
    expect(statuses(states)).toEqual(['loading', 'ready']);
  });
});
