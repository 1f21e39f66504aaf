/** Time and the one timer of the live store, injectable so that tests and benchmarks run on fake time. */
export interface Scheduler {
  /** Milliseconds since the epoch. */
  now(): number;
  setTimeout(callback: () => void, delayMs: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** Browsers clamp longer delays to 0 (a 32-bit signed millisecond count), so longer waits are cut to this. */
const longestTimerDelayMs = 2 ** 31 - 1;

/** Real time; globals are looked up at call time so that test fake timers (`vi.useFakeTimers()`) apply. */
export const systemScheduler: Scheduler = {
  now: () => Date.now(),
  setTimeout: (callback, delayMs) => globalThis.setTimeout(callback, Math.min(longestTimerDelayMs, delayMs)),
  clearTimeout: (handle) => {
    globalThis.clearTimeout(handle as ReturnType<typeof globalThis.setTimeout>);
  },
};
