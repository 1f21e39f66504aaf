import { namespaceOf, type CounterIncrement, type KeyValueStore } from './key-value-store.ts';

const sweepEveryMs = 60_000;

interface Entry {
  readonly value: string;
  readonly expiresAt: number;
}

export interface MemoryKeyValueStoreOptions {
  /** Keys kept at most per namespace (`session`, `sign-in`); past it the least recently used one goes. */
  readonly maxKeys?: Readonly<Record<string, number>>;
  /** The cap of a namespace `maxKeys` does not name. */
  readonly defaultMaxKeys?: number;
  readonly now?: () => number;
}

/**
 * The store in this process's memory: the embedded default, for one instance (a restart forgets everything). Memory
 * stays bounded: each namespace holds at most its cap, dropping the least recently used key first (reads count as
 * use, so an active fan outlives an idle one), and expired keys are swept once a minute as keys are written.
 */
export class MemoryKeyValueStore implements KeyValueStore {
  readonly #namespaces = new Map<string, Map<string, Entry>>();
  readonly #maxKeys: Readonly<Record<string, number>>;
  readonly #defaultMaxKeys: number;
  readonly #now: () => number;
  #sweptAt = -Infinity;

  constructor(options: MemoryKeyValueStoreOptions = {}) {
    this.#maxKeys = options.maxKeys ?? {};
    this.#defaultMaxKeys = options.defaultMaxKeys ?? 100_000;
    this.#now = options.now ?? Date.now;
  }

  get(key: string): Promise<string | undefined> {
    return Promise.resolve(this.#live(key, true)?.value);
  }

  getMany(keys: readonly string[]): Promise<(string | undefined)[]> {
    return Promise.resolve(keys.map((key) => this.#live(key, true)?.value));
  }

  set(key: string, value: string, ttlMs: number, only?: 'absent' | 'present'): Promise<boolean> {
    const exists = this.#live(key, false) !== undefined;
    if ((only === 'absent' && exists) || (only === 'present' && !exists)) return Promise.resolve(false);
    this.#sweep();
    const namespace = namespaceOf(key);
    const entries = this.#entries(namespace);
    entries.delete(key);
    entries.set(key, { value, expiresAt: this.#now() + ttlMs });
    const max = this.#maxKeys[namespace] ?? this.#defaultMaxKeys;
    // Map order is use order: the first key is the least recently used.
    for (const oldest of entries.keys()) {
      if (entries.size <= max) break;
      entries.delete(oldest);
    }
    return Promise.resolve(true);
  }

  take(key: string): Promise<string | undefined> {
    const entry = this.#live(key, false);
    this.#entries(namespaceOf(key)).delete(key);
    return Promise.resolve(entry?.value);
  }

  delete(key: string, ifValue?: string): Promise<void> {
    const entries = this.#entries(namespaceOf(key));
    if (ifValue === undefined || entries.get(key)?.value === ifValue) entries.delete(key);
    return Promise.resolve();
  }

  increment(key: string, by: number, ttlMs: number): Promise<number> {
    return Promise.resolve(this.#add({ key, by, ttlMs }));
  }

  incrementMany(counters: readonly CounterIncrement[]): Promise<number[]> {
    return Promise.resolve(counters.map((counter) => this.#add(counter)));
  }

  count(namespace: string): Promise<number | undefined> {
    const entries = this.#entries(namespace);
    const now = this.#now();
    for (const [key, entry] of entries) if (entry.expiresAt <= now) entries.delete(key);
    return Promise.resolve(entries.size);
  }

  #add({ key, by, ttlMs }: CounterIncrement): number {
    const live = this.#live(key, false);
    const value = (Number(live?.value) || 0) + by;
    if (live === undefined) void this.set(key, String(value), ttlMs);
    else this.#entries(namespaceOf(key)).set(key, { value: String(value), expiresAt: live.expiresAt });
    return value;
  }

  #entries(namespace: string): Map<string, Entry> {
    let entries = this.#namespaces.get(namespace);
    if (entries === undefined) {
      entries = new Map();
      this.#namespaces.set(namespace, entries);
    }
    return entries;
  }

  /** The key's unexpired entry (an expired one is dropped); `touch` makes it the most recently used. */
  #live(key: string, touch: boolean): Entry | undefined {
    const entries = this.#entries(namespaceOf(key));
    const entry = entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt <= this.#now()) {
      entries.delete(key);
      return undefined;
    }
    if (touch) {
      entries.delete(key);
      entries.set(key, entry);
    }
    return entry;
  }

  #sweep(): void {
    const now = this.#now();
    if (now - this.#sweptAt < sweepEveryMs) return;
    this.#sweptAt = now;
    for (const namespace of this.#namespaces.keys()) void this.count(namespace);
  }
}
