import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LivePollState, LivePollStore } from '../../src/polls/live-store-core.ts';
import { fixtureTimes as t, pollFixture } from '../../src/polls/poll-fixture.ts';
import { liveProxyStore } from './live-proxy-store.ts';

const id = '0b7c1d2e-3f40-4a5b-8c6d-7e8f90a1b2c3';
const poll = pollFixture({ id });

function proxy() {
  const urls: string[] = [];
  const fetchImpl: typeof fetch = (input) => {
    urls.push(input instanceof Request ? input.url : input.toString());
    return Promise.resolve(Response.json({ data: [poll] }));
  };
  return { urls, fetchImpl };
}

const seconds = (count: number) => vi.advanceTimersByTimeAsync(count * 1000);
const stores: LivePollStore[] = [];

async function watch(store: LivePollStore): Promise<LivePollState[]> {
  stores.push(store);
  const states: LivePollState[] = [];
  store.subscribe(id, (state) => states.push(state));
  await seconds(0);
  return states;
}

beforeEach(() => {
  vi.useFakeTimers({ now: t.whileOpen });
});
afterEach(() => {
  for (const store of stores.splice(0)) store.dispose();
  vi.useRealTimers();
});

describe('liveProxyStore (the live part)', () => {
  it('starts from the first read’s polls without reading them again at once', async () => {
    const { urls, fetchImpl } = proxy();
    const states = await watch(
      await liveProxyStore('https://proxy.example', fetchImpl)({ ids: [id], at: Date.now(), polls: [poll] }),
    );
    expect(states.map((state) => state.status)).toEqual(['ready']);
    expect(urls).toEqual([]);
  });

  it('reads a throttled first read’s answer and waits out its Retry-After', async () => {
    const { urls, fetchImpl } = proxy();
    const refused = Response.json(
      { error: { code: 'rate_limited', message: 'slow down' } },
      {
        status: 429,
        headers: { 'Retry-After': '40' },
      },
    );
    const store = await liveProxyStore(
      'https://proxy.example',
      fetchImpl,
    )({
      ids: [id],
      at: Date.now(),
      failure: refused,
    });
    const states = await watch(store);
    expect(states).toMatchObject([{ status: 'error', error: { code: 'throttled' } }]);
    await seconds(39);
    expect(urls).toEqual([]);
    await seconds(2);
    expect(urls).toHaveLength(1);
    expect(states.at(-1)?.status).toBe('ready');
  });

  it('turns a first read that never got an answer into a network error', async () => {
    const { fetchImpl } = proxy();
    const store = await liveProxyStore(
      'https://proxy.example',
      fetchImpl,
    )({
      ids: [id],
      at: Date.now(),
      failure: new TypeError('Failed to fetch'),
    });
    expect(await watch(store)).toMatchObject([{ status: 'error', error: { code: 'network' } }]);
  });
});
