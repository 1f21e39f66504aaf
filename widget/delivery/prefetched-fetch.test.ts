import { describe, expect, it, vi } from 'vitest';
import { prefetchedFetch } from './prefetched-fetch.ts';
import type { PollPrefetch } from './prefetch.ts';

const a = '00000000-0000-4000-8000-00000000000a';
const b = '00000000-0000-4000-8000-00000000000b';
const c = '00000000-0000-4000-8000-00000000000c';
const url = (...ids: string[]) =>
  `https://proxy.example/api/polls?${ids.map((id) => `ids[]=${id}`).join('&')}&limit=${ids.length}`;

function prefetchOf(ids: string[], at = 1000): PollPrefetch {
  return { url: url(...ids), at, response: Promise.resolve(Response.json({ data: [{ id: ids[0] }] })) };
}

describe('prefetchedFetch', () => {
  it('answers reads of the prefetched ids, or a subset, from the one prefetched answer, each with its own copy', async () => {
    const network = vi.fn(() => Promise.resolve(Response.json({ data: [] })));
    const fetch = prefetchedFetch(prefetchOf([a, b, c]), network, () => 2000);
    expect(await (await fetch(url(a, b))).json()).toEqual({ data: [{ id: a }] });
    expect(await (await fetch(url(c))).json()).toEqual({ data: [{ id: a }] });
    expect(network).not.toHaveBeenCalled();
  });

  it('answers each id from the prefetch once: the store’s next read of a poll goes to the network', async () => {
    const network = vi.fn(() => Promise.resolve(Response.json({ data: [] })));
    const fetch = prefetchedFetch(prefetchOf([a, b]), network, () => 2000);
    expect(await (await fetch(url(a, b))).json()).toEqual({ data: [{ id: a }] });
    expect(await (await fetch(url(a))).json()).toEqual({ data: [] });
    expect(await (await fetch(url(b))).json()).toEqual({ data: [] });
    expect(network).toHaveBeenCalledTimes(2);
  });

  it('goes to the network for an id the prefetch did not ask for, another path, or once the prefetch is stale', async () => {
    const network = vi.fn(() => Promise.resolve(Response.json({ data: [] })));
    let now = 2000;
    const fetch = prefetchedFetch(prefetchOf([a, b]), network, () => now);
    await fetch(url(a, c));
    await fetch(`https://proxy.example/api/other?ids[]=${a}`);
    now = 1000 + 5000;
    await fetch(url(a));
    expect(network).toHaveBeenCalledTimes(3);
  });

  it('hands a failed prefetch to the reader, as a failed read', async () => {
    const failed: PollPrefetch = {
      url: url(a),
      at: 1000,
      response: Promise.reject(new TypeError('offline')),
    };
    const fetch = prefetchedFetch(failed, vi.fn(), () => 1000);
    await expect(fetch(url(a))).rejects.toThrow('offline');
  });

  it('is the plain fetch when nothing was prefetched', () => {
    const network = vi.fn();
    expect(prefetchedFetch(undefined, network)).toBe(network);
  });
});
