import { signInPollParam, type AnalyticsEventKind } from '../../contracts/analytics-contract.ts';
import { cleanTracking, type TrackingParameters } from '../../contracts/tracking.ts';
import { PlatformError } from '../../platform/errors.ts';
import { isUuid } from '../../platform/query.ts';
import { ProxyError } from '../errors.ts';
import type { ProxyLogger } from '../logger.ts';
import type { ProxyMetrics } from '../operations/metrics.ts';
import type { KeyValueStore } from '../state/key-value-store.ts';
import { AnalyticsCounter, type CountedEntry, type CountedUnder } from './analytics-counter.ts';

/** Longer than any sign-in may wait for its callback (the session rules' pending time is 10 minutes). */
const signInCarriedMs = 30 * 60_000;

/**
 * What the proxy's routes tell the analytics, one call at each point where the proxy did something (facts), and
 * the cards shown the pages report (estimates). Each call returns at once: the counting goes on beside the
 * request (`waitUntil`) and a failure to count is logged, never the fan's problem. Off (`FAN_POLLS_ANALYTICS=false`):
 * every call does nothing.
 */
export interface ProxyAnalytics {
  readonly enabled: boolean;
  /** A sign-in left for the platform's consent page: `state` carries its poll and tracking to the callback. */
  signInStarted(state: string, query: URLSearchParams): void;
  /** The callback of the sign-in `state` ended: the fan signed in, or it failed. */
  signInEnded(state: string, signedIn: boolean): void;
  /**
   * A vote route ended: `failure` undefined when the platform took the vote, else what the route answers. Counted as
   * sent unless it certainly never reached the platform; refused when the platform refused it.
   */
  vote(pollId: string, query: URLSearchParams, failure?: unknown): void;
  /** Counts cards a page showed (already deduplicated and rate limited by the beacon route). */
  seen(cards: readonly CountedUnder[]): Promise<void>;
  /** Every counted entry of `days` (UTC, `YYYY-MM-DD`), of one poll or all. */
  read(days: readonly string[], poll: string | undefined): Promise<CountedEntry[]>;
  /** The store the beacon route deduplicates page views in. */
  readonly store: KeyValueStore;
}

export interface AnalyticsDeps {
  readonly enabled: boolean;
  readonly retentionDays: number;
  readonly store: KeyValueStore;
  readonly now: () => number;
  readonly logger: ProxyLogger;
  readonly metrics: ProxyMetrics;
  readonly waitUntil: (work: Promise<unknown>) => void;
}

export function proxyAnalytics(deps: AnalyticsDeps): ProxyAnalytics {
  const counter = new AnalyticsCounter(deps.store, deps.retentionDays, deps.now);
  const count = async (kinds: readonly AnalyticsEventKind[], under: CountedUnder): Promise<void> => {
    for (const kind of kinds) {
      await counter.count(kind, under);
      deps.metrics.analyticsEvent?.(kind);
    }
  };
  /** Runs beside the request; a failure is a warning with its code, never an answer. */
  const beside = (work: () => Promise<void>): void => {
    if (!deps.enabled) return;
    deps.waitUntil(
      work().catch((error: unknown) => {
        deps.logger.log('warn', 'analytics_not_counted', {
          code: error instanceof ProxyError ? error.code : error instanceof Error ? error.name : 'unknown',
        });
      }),
    );
  };
  const signInKey = (state: string) => `analytics-sign-in:${state}`;
  return {
    enabled: deps.enabled,
    store: deps.store,
    signInStarted(state, query) {
      beside(async () => {
        const under = { poll: pollOf(query.get(signInPollParam)), tracking: trackingOf(query) };
        await deps.store.set(signInKey(state), JSON.stringify(under), signInCarriedMs);
        await count(['signInStarted'], under);
      });
    },
    signInEnded(state, signedIn) {
      beside(async () => {
        const carried = await deps.store.take(signInKey(state));
        const under = carried === undefined ? { poll: undefined, tracking: {} } : readUnder(carried);
        await count([signedIn ? 'signedIn' : 'signInFailed'], under);
      });
    },
    vote(pollId, query, failure) {
      const kinds = voteKinds(failure);
      if (kinds.length === 0) return;
      beside(() => count(kinds, { poll: pollId, tracking: trackingOf(query) }));
    },
    async seen(cards) {
      if (!deps.enabled) return;
      for (const card of cards) await count(['shown'], card);
    },
    read: (days, poll) => counter.read(days, poll),
  };
}

/** What a vote's end counts: sent and accepted, sent and refused, sent (in doubt), or nothing (never sent). */
function voteKinds(failure: unknown): AnalyticsEventKind[] {
  if (failure === undefined) return ['voted', 'accepted'];
  const code = failure instanceof PlatformError || failure instanceof ProxyError ? failure.code : undefined;
  if (code === 'vote_refused') return ['voted', 'refused'];
  if (code === 'vote_uncertain') return ['voted'];
  return [];
}

/** The tracking values `cleanTracking` keeps, from a query string. */
export function trackingOf(query: URLSearchParams): TrackingParameters {
  return cleanTracking((name) => query.get(name));
}

function pollOf(value: string | null): string | undefined {
  return value !== null && isUuid(value) ? value : undefined;
}

function readUnder(carried: string): CountedUnder {
  const { poll, tracking } = JSON.parse(carried) as { poll?: unknown; tracking?: unknown };
  return {
    poll: typeof poll === 'string' ? pollOf(poll) : undefined,
    tracking: cleanTracking(typeof tracking === 'object' && tracking !== null ? tracking : {}),
  };
}
