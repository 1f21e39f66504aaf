import type { Scheduler } from './scheduler.ts';

interface PendingTimer {
  readonly at: number;
  readonly order: number;
  readonly callback: () => void;
}

/** Lets the event loop run a few turns, so promise chains started by a timer can finish. */
async function settleEventLoop(): Promise<void> {
  for (let turn = 0; turn < 5; turn += 1) await new Promise<void>((resolve) => setImmediate(resolve));
}

/**
 * Fake time for tests and benchmarks outside vitest: time moves only through `advanceBy`, which fires due timers in
 * order and lets the async work each one starts settle before moving on.
 */
export class ManualScheduler implements Scheduler {
  #now: number;
  #nextHandle = 1;
  #order = 0;
  readonly #timers = new Map<number, PendingTimer>();

  constructor(startMs = 0) {
    this.#now = startMs;
  }

  now(): number {
    return this.#now;
  }

  setTimeout(callback: () => void, delayMs: number): number {
    const handle = this.#nextHandle++;
    this.#timers.set(handle, { at: this.#now + Math.max(0, delayMs), order: this.#order++, callback });
    return handle;
  }

  clearTimeout(handle: unknown): void {
    if (typeof handle === 'number') this.#timers.delete(handle);
  }

  get pendingTimers(): number {
    return this.#timers.size;
  }

  /** Moves time forward by `ms`; `settle` is awaited after each timer (default: a few event-loop turns). */
  async advanceBy(ms: number, settle: () => Promise<unknown> = settleEventLoop): Promise<void> {
    const end = this.#now + ms;
    await settle();
    for (;;) {
      const next = this.#earliest();
      if (next === undefined || next[1].at > end) break;
      this.#timers.delete(next[0]);
      this.#now = Math.max(this.#now, next[1].at);
      next[1].callback();
      await settle();
    }
    this.#now = end;
  }

  #earliest(): [number, PendingTimer] | undefined {
    let earliest: [number, PendingTimer] | undefined;
    for (const entry of this.#timers) {
      if (
        earliest === undefined ||
        entry[1].at < earliest[1].at ||
        (entry[1].at === earliest[1].at && entry[1].order < earliest[1].order)
      ) {
        earliest = entry;
      }
    }
    return earliest;
  }
}
