/**
 * The small store under the session manager and the other shared state: string values that expire, in this
 * process's memory (`memory-key-value-store.ts`), on Redis (`redis-key-value-store.ts`) or, on Workers, in Durable
 * Objects (`durable-object-key-value-store.ts`). It holds no rule of its
 * own (who may read what, for how long, how often): those live above it, once, whatever the backend. Keys are
 * `namespace:rest` (`session:<id>`); one conformance suite (`key-value-store.conformance.ts`) runs against all three.
 */
export interface KeyValueStore {
  /** The value, or undefined when absent or expired. */
  get(key: string): Promise<string | undefined>;
  /** The values of several keys, in their order, read together (one round trip on Redis); undefined where absent. */
  getMany(keys: readonly string[]): Promise<(string | undefined)[]>;
  /**
   * Writes `value`, expiring `ttlMs` from now. With `only`, writes only when the key is `absent` (a lock: of
   * concurrent writers exactly one wins) or `present` (a record deleted meanwhile stays deleted). Answers whether it
   * wrote.
   */
  set(key: string, value: string, ttlMs: number, only?: 'absent' | 'present'): Promise<boolean>;
  /** Reads and deletes in one step: of concurrent takers of one key, exactly one gets the value. */
  take(key: string): Promise<string | undefined>;
  /** Deletes the key; with `ifValue`, only while it still holds that value (a lock released by its holder only). */
  delete(key: string, ifValue?: string): Promise<void>;
  /** Live keys of one namespace (metrics), where the store counts it; undefined where it does not. */
  count(namespace: string): Promise<number | undefined>;
  /**
   * Adds `by` to the counter at `key` and answers its new value, atomically across instances (concurrent increments
   * all count). A new (or expired) counter starts from 0 and expires `ttlMs` from now; later increments keep that
   * expiry. A value that is not a number counts as 0.
   */
  increment(key: string, by: number, ttlMs: number): Promise<number>;
  /**
   * `increment` for several counters in one step: one round trip on Redis (one script), one request to each shard the
   * keys live in on Durable Objects (sent together). Each counter follows `increment`'s rules; a key named twice adds
   * both. Answers the new values, in order.
   */
  incrementMany(counters: readonly CounterIncrement[]): Promise<number[]>;
}

/** One counter's part of `incrementMany`: what `increment` takes. */
export interface CounterIncrement {
  readonly key: string;
  readonly by: number;
  readonly ttlMs: number;
}

/**
 * What the Redis store puts before every key, so one Redis can hold other data beside the proxy's. The full key is
 * also what sealed values are bound to (`TokenCipher`'s associated data), in memory too.
 */
export const keyPrefix = 'fan-polls:';

/** `session` of `session:abc`. */
export function namespaceOf(key: string): string {
  const end = key.indexOf(':');
  return end < 0 ? key : key.slice(0, end);
}
