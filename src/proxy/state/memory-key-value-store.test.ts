import type { KeyValueStore } from './key-value-store.ts';
import { describeKeyValueStore, manualStoreClock } from './key-value-store.conformance.ts';
import { MemoryKeyValueStore } from './memory-key-value-store.ts';

describeKeyValueStore('memory', () => {
  // Expiry on a clock the suite moves on: no real time passes.
  const clock = manualStoreClock();
  const memory = new MemoryKeyValueStore({ now: () => clock.now() });
  const written: string[] = [];
  // What memory holds is what was written: the values as they were set.
  const store: KeyValueStore = {
    get: (key) => memory.get(key),
    getMany: (keys) => memory.getMany(keys),
    set: (key, value, ttlMs, only) => {
      written.push(value);
      return memory.set(key, value, ttlMs, only);
    },
    take: (key) => memory.take(key),
    delete: (key, ifValue) => memory.delete(key, ifValue),
    count: (namespace) => memory.count(namespace),
    increment: (key, by, ttlMs) => memory.increment(key, by, ttlMs),
    incrementMany: (counters) => memory.incrementMany(counters),
  };
  return Promise.resolve({
    store,
    rawValues: () => Promise.resolve(written),
    close: () => Promise.resolve(),
    clock,
  });
});
