import { keyPrefix, namespaceOf, type CounterIncrement, type KeyValueStore } from './key-value-store.ts';
import type { RedisHealth } from './redis-health.ts';

// Each write, take and delete is one script: atomic, one round trip, and the namespace's expiry index (when it is
// counted) changes with the key. A nil reply is Lua's false.
const setScript = `local written
if ARGV[3] == '' then written = redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
else written = redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2], ARGV[3]) end
if written and KEYS[2] then redis.call('ZADD', KEYS[2], ARGV[4], KEYS[1]) end
if written then return 1 end
return 0`;
const takeScript = `local value = redis.call('GET', KEYS[1])
if value then
  redis.call('DEL', KEYS[1])
  if KEYS[2] then redis.call('ZREM', KEYS[2], KEYS[1]) end
end
return value`;
// Counters, in one script: KEYS are the counters, then the indexes of counted namespaces; ARGV holds four values a
// counter (by, time to live, expiry time, its index's place in KEYS or 0). The expiry is set when the counter is made
// (INCRBY makes it without one), never moved by a later increment.
const incrementScript = `local values = {}
for at = 1, #ARGV / 4 do
  local base = (at - 1) * 4
  local value = redis.call('INCRBY', KEYS[at], ARGV[base + 1])
  if redis.call('PTTL', KEYS[at]) < 0 then
    redis.call('PEXPIRE', KEYS[at], ARGV[base + 2])
    local index = tonumber(ARGV[base + 4])
    if index > 0 then redis.call('ZADD', KEYS[index], ARGV[base + 3], KEYS[at]) end
  end
  values[at] = value
end
return values`;
const deleteScript = `if ARGV[1] and redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1])
if KEYS[2] then redis.call('ZREM', KEYS[2], KEYS[1]) end
return 1`;

export interface RedisKeyValueStoreOptions {
  /** Namespaces whose live keys `count` answers for: an index sorted by expiry beside them (no SCAN). */
  readonly counted?: readonly string[];
  readonly now?: () => number;
}

/**
 * The store on Redis, shared by every instance: a restart or a deploy forgets nothing. Keys get the proxy's prefix
 * (`fan-polls:`), expiry is Redis's own (`PX`), `take` and the conditional writes are atomic across instances. Every
 * operation runs under `RedisHealth`: within its deadline, or at once `state_unavailable` (503 with `Retry-After`).
 */
export class RedisKeyValueStore implements KeyValueStore {
  readonly #redis: RedisHealth;
  readonly #counted: ReadonlySet<string>;
  readonly #now: () => number;

  constructor(redis: RedisHealth, options: RedisKeyValueStoreOptions = {}) {
    this.#redis = redis;
    this.#counted = new Set(options.counted ?? []);
    this.#now = options.now ?? Date.now;
  }

  get(key: string): Promise<string | undefined> {
    return this.#redis.run(async (redis) => (await redis.get(keyPrefix + key)) ?? undefined);
  }

  getMany(keys: readonly string[]): Promise<(string | undefined)[]> {
    return this.#redis.run(async (redis) =>
      (await redis.mGet(keys.map((key) => keyPrefix + key))).map((value) => value ?? undefined),
    );
  }

  set(key: string, value: string, ttlMs: number, only?: 'absent' | 'present'): Promise<boolean> {
    const ms = Math.max(1, Math.ceil(ttlMs));
    const condition = only === 'absent' ? 'NX' : only === 'present' ? 'XX' : '';
    return this.#redis.run(
      async (redis) =>
        (await redis.eval(setScript, {
          keys: this.#keysOf(key),
          arguments: [value, String(ms), condition, String(this.#now() + ms)],
        })) === 1,
    );
  }

  take(key: string): Promise<string | undefined> {
    return this.#redis.run(async (redis) => {
      const value = await redis.eval(takeScript, { keys: this.#keysOf(key) });
      return typeof value === 'string' ? value : undefined;
    });
  }

  delete(key: string, ifValue?: string): Promise<void> {
    return this.#redis.run(async (redis) => {
      await redis.eval(deleteScript, {
        keys: this.#keysOf(key),
        arguments: ifValue === undefined ? [] : [ifValue],
      });
    });
  }

  async increment(key: string, by: number, ttlMs: number): Promise<number> {
    const [value] = await this.incrementMany([{ key, by, ttlMs }]);
    return value ?? 0;
  }

  incrementMany(counters: readonly CounterIncrement[]): Promise<number[]> {
    if (counters.length === 0) return Promise.resolve([]);
    const indexes: string[] = [];
    const args: string[] = [];
    for (const { key, by, ttlMs } of counters) {
      const ms = Math.max(1, Math.ceil(ttlMs));
      const namespace = namespaceOf(key);
      let place = 0;
      if (this.#counted.has(namespace)) {
        const index = indexOf(namespace);
        if (!indexes.includes(index)) indexes.push(index);
        place = counters.length + indexes.indexOf(index) + 1;
      }
      args.push(String(Math.trunc(by)), String(ms), String(this.#now() + ms), String(place));
    }
    const keys = [...counters.map(({ key }) => keyPrefix + key), ...indexes];
    return this.#redis.run(async (redis) =>
      ((await redis.eval(incrementScript, { keys, arguments: args })) as unknown[]).map(Number),
    );
  }

  count(namespace: string): Promise<number | undefined> {
    if (!this.#counted.has(namespace)) return Promise.resolve(undefined);
    return this.#redis.run(async (redis) => {
      const index = indexOf(namespace);
      await redis.zRemRangeByScore(index, '-inf', this.#now());
      return redis.zCard(index);
    });
  }

  /** The prefixed key, and its namespace's index when counted. */
  #keysOf(key: string): string[] {
    const namespace = namespaceOf(key);
    return this.#counted.has(namespace) ? [keyPrefix + key, indexOf(namespace)] : [keyPrefix + key];
  }
}

/** `fan-polls:sessions-by-expiry`: the index of the `session` namespace. */
const indexOf = (namespace: string) => `${keyPrefix}${namespace}s-by-expiry`;
