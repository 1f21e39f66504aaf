// The `waitUntil` hook: every piece of work that goes on after its caller was answered is handed over, so that a
// runtime ending a request's promises with its response (Workers) keeps it alive.
import { describe, expect, it } from 'vitest';
import { createPlatformGuard } from './platform-guard.ts';
import { ResponseCache } from './response-cache.ts';

describe('waitUntil', () => {
  it('gets the poll cache’s background refresh and a stale-on-slow reload, which finish after the answer', async () => {
    const clock = { now: 0 };
    const handed: Promise<unknown>[] = [];
    const cache = new ResponseCache({
      freshMs: 1000,
      staleWhileRevalidateMs: 1000,
      staleIfErrorMs: 10_000,
      staleOnSlowMs: 20,
      maxEntries: 10,
      now: () => clock.now,
      waitUntil: (work) => handed.push(work),
    });
    await cache.get('k', () => Promise.resolve('one'));
    expect(handed).toHaveLength(0);
    clock.now = 1500;
    expect((await cache.get('k', () => Promise.resolve('two'))).body).toBe('one');
    expect(handed).toHaveLength(1);
    await Promise.all(handed);
    clock.now = 1600;
    expect((await cache.get('k', () => Promise.reject(new Error('unused')))).body).toBe('two');

    clock.now = 5000;
    const slow = new Promise<string>((resolve) =>
      setTimeout(() => {
        resolve('three');
      }, 60),
    );
    expect((await cache.get('k', () => slow)).body).toBe('two');
    expect(handed).toHaveLength(2);
    await Promise.all(handed);
    expect((await cache.get('k', () => Promise.reject(new Error('unused')))).body).toBe('three');
  });

  it('gets the platform guard’s shared-hold read and write', async () => {
    const handed: Promise<unknown>[] = [];
    const written: number[] = [];
    const guard = createPlatformGuard(
      () => Promise.resolve(new Response('{}', { status: 429, headers: { 'Retry-After': '5' } })),
      {
        now: Date.now,
        logger: { log: () => undefined },
        shared: {
          read: () => Promise.resolve(undefined),
          write: (until) => {
            written.push(until);
            return Promise.resolve();
          },
        },
        waitUntil: (work) => handed.push(work),
      },
    );
    expect((await guard.fetch('http://127.0.0.1:1/polls')).status).toBe(429);
    await Promise.all(handed);
    expect(handed).toHaveLength(2);
    expect(written).toHaveLength(1);
  });
});
