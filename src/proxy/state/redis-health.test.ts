import { describe, expect, it } from 'vitest';
import { ProxyError } from '../errors.ts';
import type { RedisConnection } from './redis-connection.ts';
import { redisHealth } from './redis-health.ts';

/** A client whose commands never settle while `stalled` (as node-redis with a paused Redis), and answer otherwise. */
function fakeClient() {
  const state = { stalled: true, aborted: 0 };
  const command = (signal: AbortSignal) =>
    state.stalled
      ? new Promise<string>(() => {
          signal.addEventListener('abort', () => {
            state.aborted += 1;
          });
        })
      : Promise.resolve('PONG');
  const client = {
    isReady: true,
    withAbortSignal: (signal: AbortSignal) => ({ ping: () => command(signal), get: () => command(signal) }),
  } as unknown as RedisConnection;
  return { client, state };
}

const quiet = { log: () => undefined };

describe('redisHealth', () => {
  it('answers state_unavailable at the deadline though the client never settles, then at once, and heals by itself', async () => {
    const { client, state } = fakeClient();
    const health = redisHealth(client, { logger: quiet, deadlineMs: 100, minProbeMs: 50, maxProbeMs: 100 });
    try {
      let started = performance.now();
      const first = await health.run((redis) => redis.get('key')).catch((error: unknown) => error);
      expect(first).toBeInstanceOf(ProxyError);
      expect((first as ProxyError).code).toBe('state_unavailable');
      expect(performance.now() - started).toBeLessThan(400);
      expect(state.aborted).toBe(1);
      expect(health.usable()).toBe(false);

      started = performance.now();
      await expect(health.run((redis) => redis.get('key'))).rejects.toBeInstanceOf(ProxyError);
      expect(performance.now() - started).toBeLessThan(20);

      state.stalled = false;
      await expect.poll(() => health.usable(), { timeout: 2000, interval: 20 }).toBe(true);
      expect(await health.run((redis) => redis.ping())).toBe('PONG');
    } finally {
      health.close();
    }
  });
});
