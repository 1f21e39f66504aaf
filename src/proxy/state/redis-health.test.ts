import { describe, expect, it, vi } from 'vitest';
import { ProxyError } from '../errors.ts';
import type { RedisConnection } from './redis-connection.ts';
import { redisHealth } from './redis-health.ts';

/** A client whose commands never settle while `stalled` (as node-redis with a paused Redis), and answer otherwise. */
function fakeClient() {
  const state = { stalled: true, aborted: 0, commands: 0 };
  const command = (signal: AbortSignal) => {
    state.commands += 1;
    if (!state.stalled) return Promise.resolve('PONG');
    return new Promise<string>(() => {
      signal.addEventListener('abort', () => {
        state.aborted += 1;
      });
    });
  };
  const client = {
    isReady: true,
    withAbortSignal: (signal: AbortSignal) => ({ ping: () => command(signal), get: () => command(signal) }),
  } as unknown as RedisConnection;
  return { client, state };
}

const quiet = { log: () => undefined };

describe('redisHealth', () => {
  it('answers state_unavailable at the deadline though the client never settles, then without asking Redis, and heals by itself', async () => {
    // The deadline and the probes on the test's clock: orders and counts, not milliseconds of a loaded runner.
    vi.useFakeTimers();
    const { client, state } = fakeClient();
    const health = redisHealth(client, { logger: quiet, deadlineMs: 100, minProbeMs: 50, maxProbeMs: 100 });
    try {
      let settled = false;
      const first = health
        .run((redis) => redis.get('key'))
        .catch((error: unknown) => error)
        .finally(() => {
          settled = true;
        });
      await vi.advanceTimersByTimeAsync(99);
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      const error = await first;
      expect(error).toBeInstanceOf(ProxyError);
      expect((error as ProxyError).code).toBe('state_unavailable');
      expect(state.aborted).toBe(1);
      expect(health.usable()).toBe(false);

      // Unusable: refused at once, with no command sent to Redis.
      const commands = state.commands;
      await expect(health.run((redis) => redis.get('key'))).rejects.toBeInstanceOf(ProxyError);
      expect(state.commands).toBe(commands);

      // Redis answers again: the next probe finds it.
      state.stalled = false;
      await vi.advanceTimersByTimeAsync(100);
      expect(health.usable()).toBe(true);
      expect(await health.run((redis) => redis.ping())).toBe('PONG');
    } finally {
      health.close();
      vi.useRealTimers();
    }
  });
});
