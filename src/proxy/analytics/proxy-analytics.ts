import { signInPollParam, type AnalyticsEventKind } from '../../contracts/analytics-contract.ts';
import { cleanTracking, type TrackingParameters } from '../../contracts/tracking.ts';
import { PlatformError } from '../../platform/errors.ts';
import { isUuid } from '../../platform/query.ts';
import { ProxyError } from '../errors.ts';
import type { ProxyLogger } from '../logger.ts';
import type { ProxyMetrics } from '../operations/metrics.ts';
import type { KeyValueStore } from '../state/key-value-store.ts';
import { AnalyticsCounter, type CountedEntry, type CountedUnder } from './analytics-counter.ts';

/**
 * What the proxy's routes tell the analytics, one call at each point where the proxy did something (facts), and
 * the cards shown the pages report (estimates). Each call returns at once: the counting goes on beside the
 * request (`waitUntil`) and a failure to count is logged, never the fan's problem. Off (`FAN_POLLS_ANALYTICS=false`):
 * every call does nothing.
 */
export interface ProxyAnalytics {
  readonly enabled: boolean;
  /** A sign-in left for the platform's consent page, counted under `under` (`signInCountedUnder`). */
  signInStarted(under: CountedUnder): void;
  /**
   * A sign-in's callback ended: the fan signed in, or it failed. `under`: what its start counted under (carried in
   * its pending entry); undefined counts under no poll.
   */
  signInEnded(under: CountedUnder | undefined, signedIn: boolean): void;
  /**
   * A vote route ended: `failure` undefined when the platform took the vote, else what the route answers. Counted as
   * sent unless it certainly never reached the platform; refused when the platform refused it.
   */
  vote(pollId: string, query: URLSearchParams, failure?: unknown): void;
  /**
   * The extension's code exchange ended: a sign-in started and completed (or failed) in one step, under no poll and
   * no tracking values (the extension's sign-in starts at the platform, unseen by the proxy).
   */
  extensionSignIn(signedIn: boolean): void;
  /** Counts cards a page showed (already deduplicated and rate limited by the beacon route). */
  seen(cards: readonly CountedUnder[]): void;
  /** Answers once every count made so far is written (a graceful stop). */
  flush(): Promise<void>;
  /** Every counted entry of `days` (UTC, `YYYY-MM-DD`), of one poll or all, as written so far. */
  read(days: readonly string[], poll: string | undefined): Promise<CountedEntry[]>;
  /** The store the beacon route deduplicates page views in. */
  readonly store: KeyValueStore;
}

/**
 * How long an instance gathers counts before writing them together: one round trip a second, however many events.
 * A write a count costs about 0.3 ms of server CPU on Redis, close to half a vote's; a second's gathering costs a few
 * µs a count. A graceful stop writes what is gathered (`flush`); a crash loses at most a second's counts.
 */
export const countsWrittenEveryMs = 1000;

export interface AnalyticsDeps {
  readonly enabled: boolean;
  readonly retentionDays: number;
  readonly store: KeyValueStore;
  readonly now: () => number;
  readonly logger: ProxyLogger;
  readonly metrics: ProxyMetrics;
  readonly waitUntil: (work: Promise<unknown>) => void;
  /** How long counts wait to be written together (`countsWrittenEveryMs`); 0: on the next turn, after the answer. */
  readonly batchMs?: number;
}

export function proxyAnalytics(deps: AnalyticsDeps): ProxyAnalytics {
  /** Writes and admissions go on beside the requests; a failure is a warning with its code, never an answer. */
  const background = (work: Promise<void>): void => {
    deps.waitUntil(
      work.catch((error: unknown) => {
        deps.logger.log('warn', 'analytics_not_counted', {
          code: error instanceof ProxyError ? error.code : error instanceof Error ? error.name : 'unknown',
        });
      }),
    );
  };
  const counter = new AnalyticsCounter(deps.store, deps.retentionDays, deps.now, {
    batchMs: deps.batchMs ?? countsWrittenEveryMs,
    background,
  });
  const count = (kinds: readonly AnalyticsEventKind[], under: CountedUnder): void => {
    if (!deps.enabled) return;
    counter.count(kinds, under);
    for (const kind of kinds) deps.metrics.analyticsEvent?.(kind);
  };
  return {
    enabled: deps.enabled,
    store: deps.store,
    signInStarted(under) {
      count(['signInStarted'], under);
    },
    signInEnded(under, signedIn) {
      count([signedIn ? 'signedIn' : 'signInFailed'], under ?? noCard);
    },
    vote(pollId, query, failure) {
      const kinds = deps.enabled ? voteKinds(failure) : [];
      if (kinds.length > 0) count(kinds, { poll: pollId, tracking: trackingOf(query) });
    },
    extensionSignIn(signedIn) {
      count(['signInStarted', signedIn ? 'signedIn' : 'signInFailed'], noCard);
    },
    seen(cards) {
      for (const card of cards) count(['shown'], card);
    },
    flush: () => counter.flush(),
    read: (days, poll) => counter.read(days, poll),
  };
}

/** What a sign-in that named no poll counts under. */
const noCard: CountedUnder = { poll: undefined, tracking: {} };

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

/** What a sign-in started with `query` counts under: the card's poll (`poll=`) and its tracking values. */
export function signInCountedUnder(query: URLSearchParams): CountedUnder {
  return { poll: pollOf(query.get(signInPollParam)), tracking: trackingOf(query) };
}

function pollOf(value: string | null): string | undefined {
  return value !== null && isUuid(value) ? value : undefined;
}
