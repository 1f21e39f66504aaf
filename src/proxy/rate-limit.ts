/**
 * A fixed-window counter per client key (the sign-in routes' flood guard). In memory, per process: a partner running
 * several instances puts a shared limit in front (CDN or load balancer) as well.
 */
export class RateLimiter {
  readonly #windows = new Map<string, { startedAt: number; count: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one attempt; answers the seconds to wait when over the limit, or undefined when allowed. */
  take(key: string): number | undefined {
    const now = this.now();
    let window = this.#windows.get(key);
    if (window === undefined || now - window.startedAt >= this.windowMs) {
      if (this.#windows.size > 10_000) this.#sweep(now);
      window = { startedAt: now, count: 0 };
      this.#windows.set(key, window);
    }
    window.count += 1;
    if (window.count <= this.limit) return undefined;
    return Math.max(1, Math.ceil((window.startedAt + this.windowMs - now) / 1000));
  }

  #sweep(now: number): void {
    for (const [key, window] of this.#windows) {
      if (now - window.startedAt >= this.windowMs) this.#windows.delete(key);
    }
  }
}
