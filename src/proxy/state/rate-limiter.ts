/** A fixed-window counter per client key: in memory (`memory-rate-limiter.ts`) or shared on Redis. */
export interface RateLimiter {
  /** Counts one attempt; answers the seconds to wait when over the limit, or undefined when allowed. */
  take(key: string): Promise<number | undefined>;
}
