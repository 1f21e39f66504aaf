import { analyticsPaths, analyticsRouteGroup } from '../../contracts/analytics-contract.ts';
import { Hono, type Context } from 'hono';
import { pageViewPattern, seenCardsPerBeacon, type SeenBeacon } from '../../contracts/analytics-contract.ts';
import { isRecord } from '../../contracts/is-record.ts';
import { routeInGroup } from '../../contracts/proxy-contract.ts';
import { cleanTracking } from '../../contracts/tracking.ts';
import { isUuid } from '../../platform/query.ts';
import { ProxyError } from '../errors.ts';
import { bearerRefusal } from '../operations/bearer-token.ts';
import type { ProxyRuntime } from '../runtime.ts';
import { MemoryRateLimiter } from '../state/memory-rate-limiter.ts';
import { minuteMs } from '../state/proxy-state.ts';
import type { CountedUnder } from './analytics-counter.ts';
import { buildReport, readReportQuery, reportCsv } from './analytics-report.ts';
import { dashboardCss, dashboardHtml, dashboardScript, dashboardSecurityPolicy } from './dashboard-page.ts';

/** How long a page view's card counts once: a replay within it adds nothing. */
const seenOnceMs = 6 * 60 * 60_000;

const path = (route: string) => routeInGroup(analyticsRouteGroup, route);
const dashboard = analyticsPaths.analyticsDashboard;

/**
 * The club's analytics routes under `/partner`: the pages' beacons of cards shown (with `FAN_POLLS_ANALYTICS` on),
 * and, with `FAN_POLLS_ANALYTICS_TOKEN` set, the reports (JSON, CSV) and the dashboard. Without the token those
 * answer 404, as `/metrics` does without its own. Every answer is `private, no-store` (`cache-policy.ts`).
 */
export function analyticsRoutes(runtime: ProxyRuntime): Hono {
  const app = new Hono();
  if (runtime.analytics.enabled) app.post(path(analyticsPaths.cardsSeen), seenRoute(runtime));
  const token = runtime.config.analyticsToken;
  if (token === undefined) return app;

  const report = async (c: Context) => {
    const refused = await bearerRefusal(c, token, 'The analytics need their bearer token.');
    if (refused) return { refused };
    const query = readReportQuery(new URL(c.req.url).searchParams, runtime.now());
    return { report: buildReport(await runtime.analytics.read(query.days, query.poll), query) };
  };
  app.get(path(analyticsPaths.analyticsJson), async (c) => {
    const answer = await report(c);
    return answer.refused ?? c.json(answer.report);
  });
  app.get(path(analyticsPaths.analyticsCsv), async (c) => {
    const answer = await report(c);
    if (answer.refused) return answer.refused;
    c.header('Content-Type', 'text/csv; charset=utf-8');
    c.header(
      'Content-Disposition',
      `attachment; filename="fan-polls-analytics-${answer.report.from}-${answer.report.to}.csv"`,
    );
    return c.body(reportCsv(answer.report));
  });

  app.get(path(dashboard.slice(0, -1)), (c) => c.redirect(dashboard, 308));
  const page = (type: string, body: string) => (c: Context) => {
    c.header('Content-Type', type);
    c.header('Content-Security-Policy', dashboardSecurityPolicy);
    c.header('Referrer-Policy', 'no-referrer');
    return c.body(body);
  };
  app.get(path(dashboard), page('text/html; charset=utf-8', dashboardHtml));
  app.get(path(`${dashboard}dashboard.js`), page('text/javascript; charset=utf-8', dashboardScript));
  app.get(path(`${dashboard}dashboard.css`), page('text/css; charset=utf-8', dashboardCss));
  return app;
}

/**
 * `POST /partner/seen`: a page's beacon of the cards it showed. Only from an allowed page (its Origin); each card of a
 * page view counts once for `seenOnceMs` (the random page-view id, held that long in the shared state); a client
 * address reports at most `FAN_POLLS_ANALYTICS_SEEN_PER_MINUTE` cards a minute, counted in this instance's memory
 * for its window only (at most two minutes) and never written anywhere. Answers 204 with no body, 429 past the limit.
 */
function seenRoute(runtime: ProxyRuntime) {
  const limiter = new MemoryRateLimiter(runtime.config.analyticsSeenPerMinute, minuteMs, runtime.now);
  return async (c: Context) => {
    const origin = c.req.header('Origin');
    if (origin === undefined || !runtime.isAllowedPage(origin))
      throw new ProxyError(
        'origin_not_allowed',
        'Cards shown are counted from an allowed page only (Origin).',
      );
    const beacon = readBeacon(await c.req.text());
    const address = runtime.clientAddress(c);
    const counted: CountedUnder[] = [];
    for (const card of beacon.cards) {
      const retryAfterSeconds = await limiter.take(address);
      if (retryAfterSeconds !== undefined)
        throw new ProxyError('rate_limited', 'Too many cards reported; try again later.', {
          retryAfterSeconds,
        });
      const once = `analytics-seen:${beacon.pageView}:${card.poll}`;
      if (await runtime.analytics.store.set(once, '1', seenOnceMs, 'absent')) counted.push(card);
    }
    runtime.analytics.seen(counted);
    return c.body(null, 204);
  };
}

/** The beacon's page view and its distinct, well-formed cards (their tracking cleaned); else `invalid_body`. */
function readBeacon(text: string): { pageView: string; cards: CountedUnder[] } {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  const beacon = body as Partial<SeenBeacon> | undefined;
  if (
    !isRecord(beacon) ||
    typeof beacon.pageView !== 'string' ||
    !pageViewPattern.test(beacon.pageView) ||
    !Array.isArray(beacon.cards) ||
    beacon.cards.length > seenCardsPerBeacon
  )
    throw new ProxyError('invalid_body', 'Send a page view id and at most 20 cards.');
  const cards = new Map<string, CountedUnder>();
  for (const card of beacon.cards as unknown[]) {
    if (!isRecord(card) || typeof card.poll !== 'string' || !isUuid(card.poll))
      throw new ProxyError('invalid_body', 'Each card needs its poll id.');
    const tracking = isRecord(card.tracking) ? cleanTracking(card.tracking) : {};
    if (!cards.has(card.poll)) cards.set(card.poll, { poll: card.poll, tracking });
  }
  return { pageView: beacon.pageView, cards: [...cards.values()] };
}
