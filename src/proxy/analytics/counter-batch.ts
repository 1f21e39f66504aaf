import type { CounterIncrement, KeyValueStore } from '../state/key-value-store.ts';

/**
 * The counts on their way to the store, written together (`incrementMany`, one round trip on Redis): a write starts
 * `windowMs` after the first count it carries (0: on the next turn of the event loop, once the answer that counted it
 * is out), and never while the previous write is on its way, so every count made meanwhile joins it. `add` answers
 * once its counts are written (or their write failed); `flush` ends the window at once and answers once everything
 * added so far is written (a graceful stop).
 */
export class CounterBatch {
  readonly #store: KeyValueStore;
  readonly #windowMs: number;
  /** Key -> its increment, summed, until the next write takes them. */
  readonly #pending = new Map<string, CounterIncrement>();
  /** The write that will carry what is pending (not started yet). */
  #queued: Promise<void> | undefined;
  /** Ends the queued write's window now. */
  #endWindow: (() => void) | undefined;
  /** The last write queued or started: later writes wait for it. */
  #last: Promise<void> | undefined;

  constructor(store: KeyValueStore, windowMs: number) {
    this.#store = store;
    this.#windowMs = windowMs;
  }

  add(counters: readonly CounterIncrement[]): Promise<void> {
    for (const counter of counters) {
      const waiting = this.#pending.get(counter.key);
      this.#pending.set(
        counter.key,
        waiting === undefined ? counter : { ...waiting, by: waiting.by + counter.by },
      );
    }
    this.#queued ??= this.#queue();
    return this.#queued;
  }

  async flush(): Promise<void> {
    this.#endWindow?.();
    await this.#last?.catch(() => undefined);
  }

  #queue(): Promise<void> {
    const previous = this.#last?.catch(() => undefined);
    const windowEnd = new Promise<void>((resolve) => {
      if (this.#windowMs <= 0) {
        this.#endWindow = resolve;
        // Workers have no setImmediate.
        if (typeof setImmediate === 'function') setImmediate(resolve);
        else setTimeout(resolve, 0);
        return;
      }
      const timer = setTimeout(resolve, this.#windowMs);
      this.#endWindow = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    const write = Promise.all([previous, windowEnd]).then(async () => {
      this.#queued = undefined;
      this.#endWindow = undefined;
      const counters = [...this.#pending.values()];
      this.#pending.clear();
      await this.#store.incrementMany(counters);
    });
    this.#last = write;
    return write;
  }
}
