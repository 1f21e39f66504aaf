import type { RateLimiter } from './rate-limiter.ts';

/**
 * A shared counter that counts in this instance instead while the shared one does not answer (Redis away): public
 * reads never wait on Redis, and the budget that keeps platform quota for fans still holds meanwhile, per instance.
 */
export function withLocalFallback(shared: RateLimiter, local: RateLimiter): RateLimiter {
  return { take: (key) => shared.take(key).catch(() => local.take(key)) };
}
