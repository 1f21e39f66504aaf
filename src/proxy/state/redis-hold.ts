import type { SharedHold } from '../platform-guard.ts';
import { keyPrefix, type RedisConnection } from './redis-connection.ts';

const holdKey = `${keyPrefix}platform-hold`;

/** The platform guard's hold on Redis: the latest end any instance set, expiring by itself. */
export function redisHold(redis: RedisConnection): SharedHold {
  return {
    async read() {
      const value = await redis.get(holdKey);
      return value === null ? undefined : Number(value);
    },
    async write(until) {
      const ms = Math.ceil(until - Date.now());
      if (ms <= 0) return;
      // Keep the later of two ends: a shorter hold never shortens a longer one.
      const current = Number((await redis.get(holdKey)) ?? 0);
      if (current >= until) return;
      await redis.set(holdKey, String(until), { expiration: { type: 'PX', value: ms } });
    },
  };
}
