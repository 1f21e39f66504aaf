// A small in-memory stand-in for the parts of the WebExtension API the background uses, for unit tests.
import type { AlarmsLike, LockRunner } from '../background/fan-session.ts';
import type { StorageAreaLike } from '../shared/typed-storage.ts';

export class FakeStorageArea implements StorageAreaLike {
  readonly items = new Map<string, unknown>();

  get(keys: string | string[]): Promise<Record<string, unknown>> {
    const result: Record<string, unknown> = {};
    for (const key of typeof keys === 'string' ? [keys] : keys) {
      if (this.items.has(key)) result[key] = structuredClone(this.items.get(key));
    }
    return Promise.resolve(result);
  }

  set(items: Record<string, unknown>): Promise<void> {
    for (const [key, value] of Object.entries(items)) this.items.set(key, structuredClone(value));
    return Promise.resolve();
  }

  remove(keys: string | string[]): Promise<void> {
    for (const key of typeof keys === 'string' ? [keys] : keys) this.items.delete(key);
    return Promise.resolve();
  }

  /** Everything stored, as one string: tests search it for tokens. */
  dump(): string {
    return JSON.stringify([...this.items.entries()]);
  }
}

export class FakeAlarms implements AlarmsLike {
  readonly scheduled = new Map<string, number>();

  create(name: string, info: { when: number }): void {
    this.scheduled.set(name, info.when);
  }

  clear(name: string): Promise<boolean> {
    return Promise.resolve(this.scheduled.delete(name));
  }
}

/** A lock runner with the same semantics as `navigator.locks.request` (exclusive, FIFO). */
export function fakeLocks(): LockRunner & { held: Set<string> } {
  const queues = new Map<string, Promise<unknown>>();
  const held = new Set<string>();
  const run = (<T>(name: string, task: () => Promise<T>): Promise<T> => {
    const previous = queues.get(name) ?? Promise.resolve();
    const next = previous.then(async () => {
      held.add(name);
      try {
        return await task();
      } finally {
        held.delete(name);
      }
    });
    queues.set(
      name,
      next.catch(() => undefined),
    );
    return next;
  }) as LockRunner & { held: Set<string> };
  run.held = held;
  return run;
}
