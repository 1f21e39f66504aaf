import { ErrorReply } from '@redis/client';
import { deadline } from '../../platform/deadline.ts';
import type { ProxyLogger } from '../logger.ts';
import type { RedisConnection } from './redis-connection.ts';
import { stateUnavailable } from './state-unavailable.ts';

export interface RedisHealthOptions {
  readonly logger: ProxyLogger;
  /** The longest any Redis operation may take, whatever the client does. Default 1 s. */
  readonly deadlineMs?: number;
  /** The first probe's delay after a failure; it doubles while probes fail, up to `maxProbeMs`. */
  readonly minProbeMs?: number;
  readonly maxProbeMs?: number;
  readonly now?: () => number;
}

export interface RedisHealth {
  /**
   * Runs one Redis operation within the deadline: `client` aborts its commands at the deadline, and the answer is
   * `state_unavailable` then even if the client never settles. While Redis is known unusable it throws at once.
   */
  run<T>(operation: (client: RedisConnection) => Promise<T>): Promise<T>;
  /** Whether operations are let through now (no failure since the last successful probe). */
  usable(): boolean;
  /** Stops probing (shutdown). */
  close(): void;
}

/**
 * Redis's health, one per instance and shared by every route (a breaker): node-redis stops timing a command once it
 * is written and has no socket timeout, so a paused Redis or a blackholed link would hang every request that
 * touches it. Here each operation has a deadline on a timer-held `AbortController` (`platform/deadline.ts`, not
 * `AbortSignal.any`, which Node 20 loses after a garbage collection) raced by the same timer; one failure or missed
 * deadline makes Redis unusable: later operations fail at once (503 with `Retry-After` until the next probe) and a
 * background `PING` with backoff (0.25 s doubling to 2 s) makes it usable again by itself. An error Redis answered
 * (a script error) is not a fault of Redis's availability.
 */
export function redisHealth(redis: RedisConnection, options: RedisHealthOptions): RedisHealth {
  const deadlineMs = options.deadlineMs ?? 1000;
  const minProbeMs = options.minProbeMs ?? 250;
  const maxProbeMs = options.maxProbeMs ?? 2000;
  const now = options.now ?? Date.now;
  let down = false;
  let probeMs = minProbeMs;
  let nextProbeAt = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;

  const within = async <T>(operation: (client: RedisConnection) => Promise<T>): Promise<T> => {
    const limit = deadline(deadlineMs);
    let expired: (() => void) | undefined;
    const missed = new Promise<never>((_, reject) => {
      expired = () => {
        reject(new Error(`Redis did not answer within ${deadlineMs} ms`));
      };
      limit.signal.addEventListener('abort', expired, { once: true });
    });
    try {
      return await Promise.race([operation(redis.withAbortSignal(limit.signal)), missed]);
    } finally {
      limit.clear();
      if (expired !== undefined) limit.signal.removeEventListener('abort', expired);
    }
  };

  const probe = () => {
    timer = undefined;
    if (closed) return;
    const ping = redis.isReady
      ? within((client) => client.ping())
      : Promise.reject(new Error('not connected'));
    ping.then(
      () => {
        down = false;
        probeMs = minProbeMs;
        options.logger.log('info', 'redis_usable');
      },
      () => {
        probeMs = Math.min(probeMs * 2, maxProbeMs);
        schedule();
      },
    );
  };
  const schedule = () => {
    if (closed || timer !== undefined) return;
    nextProbeAt = now() + probeMs;
    timer = setTimeout(probe, probeMs);
    timer.unref();
  };
  const fail = (cause: unknown) => {
    if (!down) {
      down = true;
      options.logger.log('warn', 'redis_unusable', {
        cause: cause instanceof Error ? cause.message : 'unknown',
      });
    }
    schedule();
  };
  const retryAfterSeconds = () => Math.max(1, Math.ceil((nextProbeAt - now()) / 1000));

  if (!redis.isReady) fail(new Error('not connected yet'));
  return {
    async run(operation) {
      if (down) throw stateUnavailable(new Error('Redis is unusable'), retryAfterSeconds());
      try {
        return await within(operation);
      } catch (error) {
        // An error Redis answered says it is there: no breaker for that one.
        if (error instanceof ErrorReply) throw stateUnavailable(error, 1);
        fail(error);
        throw stateUnavailable(error, retryAfterSeconds());
      }
    },
    usable: () => !down,
    close() {
      closed = true;
      if (timer !== undefined) clearTimeout(timer);
    },
  };
}
