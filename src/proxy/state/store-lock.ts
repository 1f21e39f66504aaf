import type { KeyValueStore } from './key-value-store.ts';
import { randomId } from './session-store.ts';

/**
 * A lock that expires: a set-if-absent of the holder's own random value, released only by its holder (a
 * delete-if-value), so a holder that outlived its lock never frees the next one's. Answers undefined when someone
 * else holds it; the release never throws (an unreleased lock expires by itself).
 */
export async function tryLock(
  store: KeyValueStore,
  key: string,
  ttlMs: number,
): Promise<(() => Promise<void>) | undefined> {
  const value = randomId();
  if (!(await store.set(key, value, ttlMs, 'absent'))) return undefined;
  return () => store.delete(key, value).catch(() => undefined);
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
