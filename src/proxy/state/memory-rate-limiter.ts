import type { RateLimiter } from './rate-limiter.ts';

/**
 * A fixed-window counter per client key, in this process's memory (the embedded default). With Redis configured
 * every instance counts in one place instead (`redis-rate-limiter.ts`).
 */
export class MemoryRateLimiter implements RateLimiter {
  readonly #windows = new Map<string, { startedAt: number; count: number }>();
  #sweptAt = -Infinity;

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  take(key: string): Promise<number | undefined> {
    const now = this.now();
    let window = this.#windows.get(key);
    if (window === undefined || now - window.startedAt >= this.windowMs) {
      // Ended windows go at least once a window (a key is kept no longer than about two), and at once past 10,000.
      if (this.#windows.size > 10_000 || now - this.#sweptAt >= this.windowMs) this.#sweep(now);
      window = { startedAt: now, count: 0 };
      this.#windows.set(key, window);
    }
    window.count += 1;
    if (window.count <= this.limit) return Promise.resolve(undefined);
    return Promise.resolve(Math.max(1, Math.ceil((window.startedAt + this.windowMs - now) / 1000)));
  }

  #sweep(now: number): void {
    this.#sweptAt = now;
    for (const [key, window] of this.#windows) {
      if (now - window.startedAt >= this.windowMs) this.#windows.delete(key);
    }
  }
}
