import { keyPrefix } from './key-value-store.ts';
import type { RedisHealth } from './redis-health.ts';
import type { RateLimiter } from './rate-limiter.ts';

// One round trip: count, start the window on the first count, say how long it has left.
const takeScript = `local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {count, redis.call('PTTL', KEYS[1])}`;

/** A fixed-window counter per client key on Redis: every instance counts in one place. */
export class RedisRateLimiter implements RateLimiter {
  constructor(
    private readonly redis: RedisHealth,
    private readonly name: string,
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  take(key: string): Promise<number | undefined> {
    return this.redis.run(async (redis) => {
      const [count, ttl] = (await redis.eval(takeScript, {
        keys: [`${keyPrefix}limit:${this.name}:${key}`],
        arguments: [String(this.windowMs)],
      })) as [number, number];
      if (count <= this.limit) return undefined;
      return Math.max(1, Math.ceil((ttl > 0 ? ttl : this.windowMs) / 1000));
    });
  }
}
