import { describe, expect, it, vi } from 'vitest';
import { etagOf, ifNoneMatchHits, ResponseCache } from './response-cache.ts';

function cacheAt(clock: { now: number }) {
  return new ResponseCache({
    freshMs: 1000,
    staleWhileRevalidateMs: 1000,
    staleIfErrorMs: 10_000,
    maxEntries: 2,
    now: () => clock.now,
  });
}

describe('ResponseCache', () => {
  it('renews an entry only when it is stale or older than asked, and keeps a copy put from elsewhere only when newer', async () => {
    const clock = { now: 0 };
    const cache = cacheAt(clock);
    const load = vi.fn(() => Promise.resolve(`body at ${String(clock.now)}`));
    expect((await cache.renew('k', load)).body).toBe('body at 0');
    clock.now = 600;
    expect((await cache.renew('k', load)).body).toBe('body at 0');
    expect((await cache.renew('k', load, undefined, 500)).body).toBe('body at 600');
    clock.now = 1700;
    // Stale: the reload is awaited, never the stale entry.
    expect((await cache.renew('k', load)).body).toBe('body at 1700');
    expect(load).toHaveBeenCalledTimes(3);
    cache.put('k', { body: 'older', etag: '"o"', storedAt: 1000 });
    expect(cache.atOnce('k')?.body).toBe('body at 1700');
    cache.put('k', { body: 'newer', etag: '"n"', storedAt: 1800 });
    expect(cache.atOnce('k')?.body).toBe('newer');
  });

  it('remembers a failure it is told to for the freshness window: one load per key and window', async () => {
    const clock = { now: 0 };
    const cache = cacheAt(clock);
    const garbage = new Error('malformed');
    const load = vi.fn(() => Promise.reject(garbage));
    const remember = (error: unknown) => error === garbage;
    for (let index = 0; index < 20; index += 1) {
      await expect(cache.get('k', load, remember)).rejects.toBe(garbage);
      clock.now += 100;
    }
    // 2 s of callers every 100 ms, a 1 s window: two loads.
    expect(load).toHaveBeenCalledTimes(2);
    // Not told to remember: every caller loads.
    const other = vi.fn(() => Promise.reject(new Error('other')));
    for (let index = 0; index < 3; index += 1) await cache.get('j', other).catch(() => undefined);
    expect(other).toHaveBeenCalledTimes(3);
  });

  it('serves the stale entry while a failure is remembered, and loads again after the window', async () => {
    const clock = { now: 0 };
    const cache = cacheAt(clock);
    await cache.get('k', () => Promise.resolve('good'));
    clock.now = 2500;
    const load = vi.fn(() => Promise.reject(new Error('malformed')));
    expect((await cache.get('k', load, () => true)).body).toBe('good');
    clock.now = 3000;
    expect((await cache.get('k', load, () => true)).body).toBe('good');
    expect(load).toHaveBeenCalledTimes(1);
    clock.now = 3500;
    expect(
      (
        await cache.get(
          'k',
          () => Promise.resolve('back'),
          () => true,
        )
      ).body,
    ).toBe('back');
  });

  it('coalesces concurrent misses into one load and serves the answer fresh afterwards', async () => {
    const clock = { now: 0 };
    const cache = cacheAt(clock);
    let loads = 0;
    let release: (body: string) => void = () => undefined;
    const load = () => {
      loads += 1;
      return new Promise<string>((resolve) => (release = resolve));
    };
    const waiting = Array.from({ length: 50 }, () => cache.get('k', load));
    expect(cache.loadsInFlight).toBe(1);
    release('{"a":1}');
    const answers = await Promise.all(waiting);
    expect(loads).toBe(1);
    expect(new Set(answers.map((answer) => answer.etag)).size).toBe(1);
    clock.now = 999;
    await cache.get('k', load);
    expect(loads).toBe(1);
  });

  it('serves stale while one background refresh runs, then the new answer', async () => {
    const clock = { now: 0 };
    const cache = cacheAt(clock);
    await cache.get('k', () => Promise.resolve('old'));
    clock.now = 1500;
    let loads = 0;
    const load = () => {
      loads += 1;
      return Promise.resolve('new');
    };
    expect((await cache.get('k', load)).body).toBe('old');
    expect((await cache.get('k', load)).body).toBe('old');
    // The refresh ends with a Web Crypto digest (off the event loop): wait for it, not for a number of ticks.
    await cache.loadsSettled();
    expect(cache.loadsInFlight).toBe(0);
    expect(loads).toBe(1);
    expect((await cache.get('k', load)).body).toBe('new');
  });

  it('falls back to a stale answer when the reload fails, within stale-if-error only', async () => {
    const clock = { now: 0 };
    const cache = cacheAt(clock);
    await cache.get('k', () => Promise.resolve('kept'));
    const failing = () => Promise.reject(new Error('upstream down'));
    clock.now = 5000;
    expect((await cache.get('k', failing)).body).toBe('kept');
    clock.now = 20_000;
    await expect(cache.get('k', failing)).rejects.toThrow('upstream down');
  });

  it('keeps at most maxEntries answers', async () => {
    const clock = { now: 0 };
    const cache = cacheAt(clock);
    let loads = 0;
    const load = () => {
      loads += 1;
      return Promise.resolve('x');
    };
    await cache.get('a', load);
    await cache.get('b', load);
    await cache.get('c', load);
    await cache.get('a', load);
    expect(loads).toBe(4);
  });
});

describe('ETag', () => {
  it('differs for different bodies and matches If-None-Match lists and weak forms', async () => {
    const a = await etagOf('{"a":1}');
    expect(a).not.toBe(await etagOf('{"a":2}'));
    expect(ifNoneMatchHits(a, a)).toBe(true);
    expect(ifNoneMatchHits(`"other", W/${a}`, a)).toBe(true);
    expect(ifNoneMatchHits('"other"', a)).toBe(false);
    expect(ifNoneMatchHits(undefined, a)).toBe(false);
  });
});
