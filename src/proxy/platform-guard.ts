import type { FetchLike } from '../platform/http.ts';
import { parseRetryAfter } from '../platform/retry-after.ts';
import type { ProxyLogger } from './logger.ts';

/** A hold shared by every instance (Redis), or none. */
export interface SharedHold {
  /** When the hold another instance set ends (ms since the epoch), if any. */
  read(): Promise<number | undefined>;
  write(until: number): Promise<void>;
}

export interface PlatformGuardOptions {
  readonly now: () => number;
  readonly logger: ProxyLogger;
  readonly shared?: SharedHold;
  /** Consecutive failures (network, timeout, 5xx) that open the breaker. Default 5. */
  readonly failureThreshold?: number;
  /** How long the breaker stays open before one trial request; doubles while trials fail, up to `maxHoldMs`. */
  readonly openMs?: number;
  /** The longest hold, whatever a `Retry-After` says. Default 5 minutes. */
  readonly maxHoldMs?: number;
  /** How often the shared hold is read again. Default 1 s. */
  readonly sharedReadMs?: number;
}

export interface PlatformGuard {
  readonly fetch: FetchLike;
  /** `open` while nothing may be sent (breaker open or a 429 hold), until when. */
  state(): { readonly open: boolean; readonly until: number; readonly reason: HoldReason | undefined };
}

type HoldReason = 'throttled' | 'failing';

/**
 * One circuit breaker and one 429 hold for every call to the platform (reads, fans' routes, token calls), in front
 * of the fetch they all share. After the platform answered 429, nothing is sent until its `Retry-After` (capped);
 * after `failureThreshold` failures in a row, nothing is sent for `openMs`, then one trial request decides. While
 * held, a call gets at once a 429 with `Retry-After`, which every caller already turns into `throttled`: public
 * reads answer from the cache, fans get 503 with `Retry-After`, a vote is never sent. With Redis the hold is shared,
 * so N instances do not each learn it the hard way.
 */
export function createPlatformGuard(fetch: FetchLike, options: PlatformGuardOptions): PlatformGuard {
  const { now, logger, shared } = options;
  const failureThreshold = options.failureThreshold ?? 5;
  const baseOpenMs = options.openMs ?? 30_000;
  const maxHoldMs = options.maxHoldMs ?? 5 * 60_000;
  const sharedReadMs = options.sharedReadMs ?? 1000;

  let until = 0;
  let reason: HoldReason | undefined;
  let failures = 0;
  let openMs = baseOpenMs;
  let trialInFlight = false;
  let sharedCheckedAt = -Infinity;
  let sharedRead: Promise<void> | undefined;

  const hold = (nextUntil: number, why: HoldReason) => {
    const capped = Math.min(nextUntil, now() + maxHoldMs);
    if (capped <= until) return;
    until = capped;
    reason = why;
    logger.log('warn', 'platform_hold', { reason: why, seconds: Math.ceil((capped - now()) / 1000) });
    shared?.write(capped).catch(() => undefined);
  };

  const adoptShared = async () => {
    if (shared === undefined || now() - sharedCheckedAt < sharedReadMs) return;
    sharedCheckedAt = now();
    sharedRead ??= shared
      .read()
      .then((remote) => {
        if (remote !== undefined && remote > until) {
          until = Math.min(remote, now() + maxHoldMs);
          reason ??= 'failing';
        }
      })
      .catch(() => undefined)
      .finally(() => {
        sharedRead = undefined;
      });
    await sharedRead;
  };

  const refused = (): Response => {
    const seconds = Math.max(1, Math.ceil((until - now()) / 1000));
    return new Response(JSON.stringify({ code: 'held', message: 'Held by the proxy' }), {
      status: 429,
      headers: {
        'Retry-After': String(seconds),
        'Content-Type': 'application/json',
        'X-Fan-Polls-Held': reason ?? 'held',
      },
    });
  };

  const guarded: FetchLike = async (input, init) => {
    await adoptShared();
    const isTrial = now() >= until && reason === 'failing';
    if (now() < until || (isTrial && trialInFlight)) return refused();
    if (isTrial) trialInFlight = true;
    try {
      const response = await fetch(input, init);
      if (response.status === 429) {
        const retryAt = parseRetryAfter(response.headers.get('Retry-After'), now())?.getTime();
        hold(Math.max(now() + 1000, retryAt ?? now() + 60_000), 'throttled');
      } else if (response.status >= 500) {
        failed();
      } else {
        failures = 0;
        openMs = baseOpenMs;
        if (reason === 'failing') reason = undefined;
      }
      return response;
    } catch (error) {
      // An abort the caller asked for is not the platform failing.
      if (!(init?.signal?.aborted === true && (error as Error).name === 'AbortError')) failed();
      throw error;
    } finally {
      if (isTrial) trialInFlight = false;
    }
  };

  function failed(): void {
    failures += 1;
    if (reason === 'failing' && now() >= until) {
      // The trial failed: open again, for longer.
      openMs = Math.min(openMs * 2, maxHoldMs);
      hold(now() + openMs, 'failing');
    } else if (failures >= failureThreshold) {
      hold(now() + openMs, 'failing');
    }
  }

  return {
    fetch: guarded,
    state: () => ({ open: now() < until, until, reason }),
  };
}
