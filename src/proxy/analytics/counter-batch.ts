import type { AnalyticsEventKind } from '../../contracts/analytics-contract.ts';
import type { CounterIncrement, KeyValueStore } from '../state/key-value-store.ts';

/**
 * The counts on their way to the store, written together (`incrementMany`, one round trip on Redis): a write starts
 * `windowMs` after the first count it carries (0: on the next turn of the event loop, once the answer that counted it
 * is out), and never while the previous write is on its way, so every count made meanwhile joins it. Each write is
 * handed to `background` (on Workers, the requests' `waitUntil`; its failure is logged there); `flush` ends the
 * window at once and answers once everything added so far is written (a graceful stop).
 */
export class CounterBatch {
  readonly #store: KeyValueStore;
  readonly #windowMs: number;
  readonly #background: (write: Promise<void>) => void;
  /** Key -> its increment, summed, until the next write takes them. */
  #pending = new Map<string, { by: number; readonly ttlMs: number }>();
  /** The write queued for what is pending (not started yet). */
  #queued: Promise<void> | undefined;
  /** Ends the queued write's window now. */
  #endWindow: (() => void) | undefined;
  /** The last write queued or started: the next waits for it. */
  #last: Promise<void> | undefined;

  constructor(store: KeyValueStore, windowMs: number, background: (write: Promise<void>) => void) {
    this.#store = store;
    this.#windowMs = windowMs;
    this.#background = background;
  }

  /** One more of each of `kinds` at `<counters>:<kind>`; answers the write that carries them. */
  add(counters: string, kinds: readonly AnalyticsEventKind[], ttlMs: number): Promise<void> {
    for (const kind of kinds) {
      const key = `${counters}:${kind}`;
      const waiting = this.#pending.get(key);
      if (waiting === undefined) this.#pending.set(key, { by: 1, ttlMs });
      else waiting.by += 1;
    }
    if (this.#queued === undefined) {
      this.#queued = this.#queue();
      // Handed over once, by the caller that queued it: on Workers, its request keeps the write's timer alive.
      this.#background(this.#queued);
    }
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
      const counters: CounterIncrement[] = [];
      for (const [key, { by, ttlMs }] of this.#pending) counters.push({ key, by, ttlMs });
      this.#pending = new Map();
      await this.#store.incrementMany(counters);
    });
    this.#last = write;
    return write;
  }
}
