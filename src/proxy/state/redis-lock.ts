import { randomId } from './session-store.ts';
import type { RedisConnection } from './redis-connection.ts';

const releaseScript =
  "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0";

/**
 * A lock that expires (SET NX PX): the holder's own random value, released only by its holder (a compare-and-delete
 * script), so a holder that outlived its lock never frees the next one's. Answers undefined when someone else holds it.
 */
export async function tryLock(
  redis: RedisConnection,
  key: string,
  ttlMs: number,
): Promise<(() => Promise<void>) | undefined> {
  const value = randomId();
  const taken = await redis.set(key, value, { condition: 'NX', expiration: { type: 'PX', value: ttlMs } });
  if (taken !== 'OK') return undefined;
  return async () => {
    try {
      await redis.eval(releaseScript, { keys: [key], arguments: [value] });
    } catch {
      // Unreleased, it expires by itself.
    }
  };
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
