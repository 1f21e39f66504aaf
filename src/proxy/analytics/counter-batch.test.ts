// The batch under the analytics counter: the counts of a window in one `incrementMany`, the counts made while a write
// is on its way in the next one, a failed write handed to the background and the next one going on.
import { describe, expect, it } from 'vitest';
import type { CounterIncrement, KeyValueStore } from '../state/key-value-store.ts';
import { MemoryKeyValueStore } from '../state/memory-key-value-store.ts';
import { CounterBatch } from './counter-batch.ts';

/** The memory store, each `incrementMany` recorded and held until the test lets it go. */
function heldStore() {
  const memory = new MemoryKeyValueStore();
  const writes: CounterIncrement[][] = [];
  const held: (() => void)[] = [];
  const starting: (() => void)[] = [];
  let failNext = false;
  const store: KeyValueStore = Object.assign(Object.create(memory) as KeyValueStore, {
    incrementMany: async (counters: readonly CounterIncrement[]) => {
      writes.push([...counters]);
      starting.shift()?.();
      await new Promise<void>((resolve) => held.push(resolve));
      if (failNext) {
        failNext = false;
        throw new Error('the store failed');
      }
      return memory.incrementMany(counters);
    },
  });
  return {
    store,
    memory,
    writes,
    release: () => held.shift()?.(),
    /** Resolves once the next write starts (asked before it does). */
    nextWrite: () => new Promise<void>((resolve) => starting.push(resolve)),
    failNextWrite: () => (failNext = true),
  };
}

describe('the counter batch', () => {
  it('writes a window’s counts in one step, and what comes during a write in the next', async () => {
    const { store, memory, writes, release, nextWrite } = heldStore();
    const handed: Promise<void>[] = [];
    const batch = new CounterBatch(store, 60_000, (write) => handed.push(write));
    const first = batch.add('analytics:d:p:h', ['voted', 'accepted'], 600_000);
    expect(batch.add('analytics:d:p:h', ['voted'], 600_000)).toBe(first);
    const started = nextWrite();
    const flushed = batch.flush();
    await started;
    // The first write is on its way: these wait for the next.
    const second = batch.add('analytics:d:p:h', ['refused'], 600_000);
    expect(second).not.toBe(first);
    expect(writes[0]).toEqual([
      { key: 'analytics:d:p:h:voted', by: 2, ttlMs: 600_000 },
      { key: 'analytics:d:p:h:accepted', by: 1, ttlMs: 600_000 },
    ]);
    release();
    await flushed;
    expect(handed).toHaveLength(2);
    const secondStarted = nextWrite();
    const secondFlush = batch.flush();
    await secondStarted;
    release();
    await secondFlush;
    expect(writes).toHaveLength(2);
    expect(await memory.getMany(['analytics:d:p:h:voted', 'analytics:d:p:h:refused'])).toEqual(['2', '1']);
  });

  it('hands a failed write to the background, and writes the next', async () => {
    const { store, memory, writes, release, nextWrite, failNextWrite } = heldStore();
    const batch = new CounterBatch(store, 60_000, () => undefined);
    failNextWrite();
    const failed = batch.add('analytics:d:p:h', ['shown'], 600_000);
    const started = nextWrite();
    void batch.flush();
    await started;
    release();
    await expect(failed).rejects.toThrow('the store failed');
    const next = batch.add('analytics:d:p:h', ['shown'], 600_000);
    const nextStarted = nextWrite();
    const flushed = batch.flush();
    await nextStarted;
    release();
    await Promise.all([next, flushed]);
    expect(writes).toHaveLength(2);
    expect(await memory.get('analytics:d:p:h:shown')).toBe('1');
  });
});
