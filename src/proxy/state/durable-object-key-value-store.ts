import type { CounterIncrement, KeyValueStore } from './key-value-store.ts';
import type { RateLimiter } from './rate-limiter.ts';
import type { ShardAnswer, ShardNamespace, ShardRequest } from './durable-object-protocol.ts';
import { stateUnavailable } from './state-unavailable.ts';

export interface DurableObjectStoreOptions {
  /** How many Durable Objects the keys are spread over (by a hash of the key). Default 16. */
  readonly shards?: number;
  /** The longest one operation may take before it is `state_unavailable`. Default 2 s. */
  readonly deadlineMs?: number;
}

/**
 * The store on Cloudflare Durable Objects (Workers): each key lives in one of `shards` objects (`StateShard`, in
 * `src/edge/state-shard.ts`), chosen by a hash of the key, so every operation on one key is one request to one
 * single-threaded object: `take` and the conditional writes are atomic across every isolate and location. Expiry is
 * the object's (an expiry time per key, checked on read, swept by an alarm). A failure or a missed deadline is
 * `state_unavailable` (503 with `Retry-After`), as on Redis.
 */
export class DurableObjectKeyValueStore implements KeyValueStore {
  readonly #namespace: ShardNamespace;
  readonly #shards: number;
  readonly #deadlineMs: number;

  constructor(namespace: ShardNamespace, options: DurableObjectStoreOptions = {}) {
    this.#namespace = namespace;
    this.#shards = options.shards ?? 16;
    this.#deadlineMs = options.deadlineMs ?? 2000;
  }

  async get(key: string): Promise<string | undefined> {
    return (await this.#ask(key, { op: 'get', key })).value;
  }

  /** Keys live in the shards their hashes name: one request to each, all at once. */
  getMany(keys: readonly string[]): Promise<(string | undefined)[]> {
    return Promise.all(keys.map((key) => this.get(key)));
  }

  async set(key: string, value: string, ttlMs: number, only?: 'absent' | 'present'): Promise<boolean> {
    const ms = Math.max(1, Math.ceil(ttlMs));
    const request: ShardRequest = {
      op: 'set',
      key,
      value,
      ttlMs: ms,
      ...(only === undefined ? {} : { only }),
    };
    return (await this.#ask(key, request)).written === true;
  }

  async take(key: string): Promise<string | undefined> {
    return (await this.#ask(key, { op: 'take', key })).value;
  }

  async delete(key: string, ifValue?: string): Promise<void> {
    await this.#ask(key, { op: 'delete', key, ...(ifValue === undefined ? {} : { ifValue }) });
  }

  /** Summed over every shard: for metrics only (Workers have no `/metrics`). */
  async count(namespace: string): Promise<number | undefined> {
    const answers = await Promise.all(
      Array.from({ length: this.#shards }, (_, shard) => this.#askShard(shard, { op: 'count', namespace })),
    );
    return answers.reduce((sum, answer) => sum + (answer.count ?? 0), 0);
  }

  async increment(key: string, by: number, ttlMs: number): Promise<number> {
    const ms = Math.max(1, Math.ceil(ttlMs));
    return (await this.#ask(key, { op: 'increment', key, by: Math.trunc(by), ttlMs: ms })).count ?? 0;
  }

  /** The counters of each shard in one request to it, every shard's at once. */
  async incrementMany(counters: readonly CounterIncrement[]): Promise<number[]> {
    const byShard = new Map<number, { counter: CounterIncrement; at: number }[]>();
    counters.forEach((counter, at) => {
      const shard = shardOf(counter.key, this.#shards);
      byShard.set(shard, [...(byShard.get(shard) ?? []), { counter, at }]);
    });
    const values = new Array<number>(counters.length).fill(0);
    await Promise.all(
      [...byShard].map(async ([shard, parts]) => {
        const request: ShardRequest = {
          op: 'incrementMany',
          counters: parts.map(({ counter }) => ({
            key: counter.key,
            by: Math.trunc(counter.by),
            ttlMs: Math.max(1, Math.ceil(counter.ttlMs)),
          })),
        };
        const { counts = [] } = await this.#askShard(shard, request);
        parts.forEach(({ at }, index) => (values[at] = counts[index] ?? 0));
      }),
    );
    return values;
  }

  /** One attempt in `key`'s fixed window: the count so far and the window's time left. */
  async hit(key: string, windowMs: number): Promise<{ count: number; resetInMs: number }> {
    const answer = await this.#ask(key, { op: 'hit', key, windowMs });
    return { count: answer.count ?? 0, resetInMs: answer.resetInMs ?? windowMs };
  }

  #ask(key: string, request: ShardRequest): Promise<ShardAnswer> {
    return this.#askShard(shardOf(key, this.#shards), request);
  }

  async #askShard(shard: number, request: ShardRequest): Promise<ShardAnswer> {
    try {
      const stub = this.#namespace.get(this.#namespace.idFromName(`shard-${shard}`) as never);
      const response = await stub.fetch(
        new Request('https://state.internal/', {
          method: 'POST',
          body: JSON.stringify(request),
          signal: AbortSignal.timeout(this.#deadlineMs),
        }),
      );
      if (!response.ok) throw new Error(`The state shard answered ${response.status}`);
      return (await response.json()) as ShardAnswer;
    } catch (error) {
      throw stateUnavailable(error, 1);
    }
  }
}

/** A fixed-window counter per client key in the Durable Object of that key. */
export class DurableObjectRateLimiter implements RateLimiter {
  constructor(
    private readonly store: DurableObjectKeyValueStore,
    private readonly name: string,
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  async take(key: string): Promise<number | undefined> {
    const { count, resetInMs } = await this.store.hit(`limit:${this.name}:${key}`, this.windowMs);
    if (count <= this.limit) return undefined;
    return Math.max(1, Math.ceil(resetInMs / 1000));
  }
}

/** FNV-1a of the key, modulo the shard count: the same key, the same object, from every isolate. */
function shardOf(key: string, shards: number): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < key.length; index += 1) {
    hash ^= key.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % shards;
}
