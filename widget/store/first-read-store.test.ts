import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Poll } from '../../src/platform/types.ts';
import * as live from '../../src/polls/adaptive-pacer.ts';
import type { LivePollState } from '../../src/polls/live-store-core.ts';
import { fixtureTimes as t, pollFixture } from '../../src/polls/poll-fixture.ts';
import { createFirstReadStore } from './first-read-store.ts';

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

const seconds = (count: number) => vi.advanceTimersByTimeAsync(count * 1000);
const stores: { dispose(): void }[] = [];

beforeEach(() => {
  vi.useFakeTimers({ now: t.whileOpen });
});
afterEach(() => {
  for (const store of stores.splice(0)) store.dispose();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('first-read store (script-tag widget)', () => {
  it('reads the page’s polls in one request, then paces them once the live part has loaded', async () => {
    const polls = source([pollFixture({ id: 'a' }), pollFixture({ id: 'b' })]);
    let arrive: () => void = () => undefined;
    const loadLive = vi.fn(
      () =>
        new Promise<typeof live>((resolve) => {
          arrive = () => {
            resolve(live);
          };
        }),
    );
    const store = createFirstReadStore(polls.fetchPolls, loadLive);
    stores.push(store);
    const states: LivePollState[] = [];
    store.subscribe('a', (state) => states.push(state));
    store.subscribe('b', () => undefined);
    await seconds(0);
    expect(polls.requests).toEqual([['a', 'b']]);
    expect(states.map((state) => state.status)).toEqual(['loading', 'ready']);
    expect(loadLive).toHaveBeenCalledTimes(1);
    await seconds(30);
    expect(polls.requests).toHaveLength(1);
    arrive();
    // Open polls: the live part's pace (5 s) from the first read, still one request for the page.
    await seconds(31);
    expect(polls.requests.length).toBeGreaterThan(1);
    expect(new Set(polls.requests.map((ids) => ids.join()))).toEqual(new Set(['a,b']));
  });

  it('tries to load the live part again after the next read when a load failed', async () => {
    const polls = source([pollFixture({ id: 'a' })]);
    const loadLive = vi.fn(() => Promise.reject(new Error('offline')));
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const store = createFirstReadStore(polls.fetchPolls, loadLive);
    stores.push(store);
    store.subscribe('a', () => undefined);
    await seconds(0);
    expect(loadLive).toHaveBeenCalledTimes(1);
    expect(logged).toHaveBeenCalledTimes(1);
    store.refresh('a');
    await seconds(1);
    expect(polls.requests).toHaveLength(2);
    expect(loadLive).toHaveBeenCalledTimes(2);
  });

  it('reads no more after a failed first read until a refresh, and the live part backs off from it', async () => {
    const polls = source([pollFixture({ id: 'a' })]);
    polls.failNext();
    const store = createFirstReadStore(polls.fetchPolls, () => Promise.resolve(live));
    stores.push(store);
    const states: LivePollState[] = [];
    store.subscribe('a', (state) => states.push(state));
    await seconds(0);
    expect(states.at(-1)?.status).toBe('error');
    expect(polls.requests).toHaveLength(1);
    // The backoff's floor (5 s) holds for the failure the first pacer saw.
    await seconds(4);
    expect(polls.requests).toHaveLength(1);
    await seconds(120);
    expect(polls.requests.length).toBeGreaterThan(1);
    expect(states.at(-1)?.status).toBe('ready');
  });
});
