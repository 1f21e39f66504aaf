/**
 * The proxy's first-party poll analytics, shared by the proxy (which counts and reports), the widget (which reports
 * the cards a fan saw) and the dashboard: the event kinds, the beacon's shape and limits, the report's groups and
 * shape. Counts only: nothing here names a fan, a browser or an address.
 */
import type { TrackingParameterName } from './tracking.ts';

/**
 * Where the club's analytics are on the proxy: a route group of their own, not in `proxyRouteGroups` (whose table
 * ships in the card's first paint), since only the beacons' chunk, the proxy and the dashboard need them.
 */
export const analyticsRouteGroup = '/partner';

export const analyticsPaths = {
  /** POST a `SeenBeacon` (`text/plain` JSON) from an allowed page -> 204. The cards a page view showed. */
  cardsSeen: `${analyticsRouteGroup}/seen`,
  /** GET `?from=YYYY-MM-DD&to=YYYY-MM-DD[&poll=][&group=]` with `Authorization: Bearer` -> `AnalyticsReport`. */
  analyticsJson: `${analyticsRouteGroup}/analytics.json`,
  /** The same report as CSV (one line per row). */
  analyticsCsv: `${analyticsRouteGroup}/analytics.csv`,
  /** The club's dashboard page (asks for the analytics token). */
  analyticsDashboard: `${analyticsRouteGroup}/analytics/`,
} as const;

/**
 * What is counted, per day, poll and tracking parameters. `shown`: a card (or the banner's card) at least half visible
 * for a second, once per page view (the page reports it: an estimate). The rest are what the proxy itself did (facts):
 * sign-ins started, completed (`signedIn`) and failed, votes sent to the platform, and of those the ones it accepted
 * and the ones it refused.
 */
export const analyticsEventKinds = [
  'shown',
  'signInStarted',
  'signedIn',
  'signInFailed',
  'voted',
  'accepted',
  'refused',
] as const;
export type AnalyticsEventKind = (typeof analyticsEventKinds)[number];

/**
 * The query parameter of the proxy's sign-in (`proxyRoutes.signIn`) that names the poll the fan signs in from, so the
 * sign-in counts for that poll; without it the sign-in counts for no poll.
 */
export const signInPollParam = 'poll';

/** `POST cardsSeen`: the cards this page view showed, sent as `text/plain` JSON (no preflight, no credentials). */
export interface SeenBeacon {
  /** Random, made once per page view (never stored by the page, never tied to a fan): replays count once. */
  readonly pageView: string;
  readonly cards: readonly SeenCard[];
}

export interface SeenCard {
  readonly poll: string;
  /** The card's tracking parameters, as its attributes give them (the proxy keeps what `cleanTracking` keeps). */
  readonly tracking?: Readonly<Partial<Record<TrackingParameterName, string>>>;
}

/** The page-view id's shape: 16 to 64 URL-safe characters. */
export const pageViewPattern = /^[A-Za-z0-9_-]{16,64}$/;
/** Cards in one beacon at most; more cards wait for the next beacon. */
export const seenCardsPerBeacon = 20;

/** How the report's rows are split beside the poll: one tracking parameter, or the day. */
export const analyticsGroups = ['campaign', 'referrer', 'param1', 'param2', 'param3', 'day'] as const;
export type AnalyticsGroup = (typeof analyticsGroups)[number];

/** The longest range one report covers, in days (both ends included). */
export const analyticsMaxRangeDays = 400;

/** The tracking value of the combinations counted past the bound of a poll's day (1,000 combinations). */
export const analyticsOtherValue = '(other)';

/** One count of each kind. */
export type AnalyticsCounts = { readonly [Kind in AnalyticsEventKind]: number };

/** One row of a report: a poll (null: sign-ins that named none) and, when grouped, the group's value. */
export interface AnalyticsRow extends AnalyticsCounts {
  readonly poll: string | null;
  /** The group's value: a day (`YYYY-MM-DD`), a tracking value, `(other)`, or null where the parameter was unset. */
  readonly value?: string | null;
}

/** `GET analyticsJson`'s answer. */
export interface AnalyticsReport {
  readonly from: string;
  readonly to: string;
  readonly poll: string | null;
  readonly group: AnalyticsGroup | null;
  readonly rows: readonly AnalyticsRow[];
  readonly totals: AnalyticsCounts;
}
