import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { CacheOutcome, ProxyMetrics } from './metrics.ts';

/**
 * How many requests' figures wait at most before they are handed to prom-client when no scrape comes: small enough
 * that a hand-over holds the requests behind it a fraction of a millisecond (the p99 at half load).
 */
export const metricsBatchSize = 256;

/**
 * `ProxyMetrics` on prom-client, in a registry of its own (several proxies may share a process in tests), with
 * Node's default process metrics. `activeSessions` is read at scrape time.
 *
 * The per-request figures (a request's count and time, a poll read's cache outcome) are kept in plain numbers and
 * handed to prom-client in batches: when a scrape reads those metrics (their `collect`) and every `metricsBatchSize`
 * requests, so what waits stays bounded when no one scrapes. A scrape sees every request answered before it; a
 * request costs an array push instead of prom-client's label hashing (issue 26).
 */
export function prometheusMetrics(activeSessions: () => Promise<number | undefined>): ProxyMetrics {
  const registry = new Registry();
  // A label set's children, looked up once: hashing the labels on every request costs more than the count itself.
  const requestSeries = new Map<string, RequestSeries>();
  const cacheSeries = new Map<CacheOutcome, CacheSeries>();
  let waiting = 0;
  /** Hands every waiting figure to prom-client (each batch, and each scrape through the metrics' `collect`). */
  const collect = () => {
    for (const series of requestSeries.values()) {
      if (series.seconds.length === 0) continue;
      series.counter.inc(series.seconds.length);
      for (const seconds of series.seconds) series.histogram.observe(seconds);
      series.seconds.length = 0;
    }
    for (const series of cacheSeries.values()) {
      if (series.count === 0) continue;
      series.counter.inc(series.count);
      series.count = 0;
    }
    waiting = 0;
  };
  collectDefaultMetrics({ register: registry, prefix: 'fan_polls_' });
  const requests = new Counter({
    name: 'fan_polls_http_requests_total',
    help: 'Requests answered, by route pattern, method and status.',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [registry],
    collect,
  });
  const latency = new Histogram({
    name: 'fan_polls_http_request_duration_seconds',
    help: 'Time to answer a request, by route pattern.',
    labelNames: ['route', 'method'] as const,
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
    collect,
  });
  const upstream = new Counter({
    name: 'fan_polls_upstream_requests_total',
    help: 'Requests to the platform, by operation and outcome.',
    labelNames: ['operation', 'outcome'] as const,
    registers: [registry],
  });
  const cache = new Counter({
    name: 'fan_polls_poll_cache_total',
    help: 'Public poll reads by cache outcome: hit, stale (served while refreshing), miss, coalesced (waited on another miss), stale_on_error.',
    labelNames: ['outcome'] as const,
    registers: [registry],
    collect,
  });
  const refusals = new Counter({
    name: 'fan_polls_refusals_total',
    help: 'Requests refused on purpose, by reason (the error code answered).',
    labelNames: ['reason'] as const,
    registers: [registry],
  });
  const analyticsEvents = new Counter({
    name: 'fan_polls_analytics_events_total',
    help: 'Analytics events counted by this instance, by kind: shown, signInStarted, signedIn, signInFailed, voted, accepted, refused.',
    labelNames: ['kind'] as const,
    registers: [registry],
  });
  new Gauge({
    name: 'fan_polls_active_sessions',
    help: 'Signed-in fan sessions held (in memory: this instance; on Redis: every instance).',
    registers: [registry],
    async collect() {
      const count = await activeSessions();
      if (count !== undefined) this.set(count);
    },
  });
  const counted = () => {
    waiting += 1;
    if (waiting >= metricsBatchSize) collect();
  };
  return {
    request: (route, method, status, seconds) => {
      const key = `${method} ${route} ${status}`;
      let series = requestSeries.get(key);
      if (series === undefined) {
        series = {
          counter: requests.labels(route, method, String(status)),
          histogram: latency.labels(route, method),
          seconds: [],
        };
        requestSeries.set(key, series);
      }
      series.seconds.push(seconds);
      counted();
    },
    upstream: (operation, outcome) => {
      upstream.inc({ operation, outcome });
    },
    cache: (outcome) => {
      let series = cacheSeries.get(outcome);
      if (series === undefined) {
        series = { counter: cache.labels(outcome), count: 0 };
        cacheSeries.set(outcome, series);
      }
      series.count += 1;
      counted();
    },
    refusal: (reason) => {
      refusals.inc({ reason });
    },
    analyticsEvent: (kind) => {
      analyticsEvents.inc({ kind });
    },
    render: async () => ({ contentType: registry.contentType, body: await registry.metrics() }),
  };
}

/** One route, method and status: the times of the requests not yet handed to prom-client. */
interface RequestSeries {
  readonly counter: { inc(value: number): void };
  readonly histogram: { observe(value: number): void };
  readonly seconds: number[];
}

/** One cache outcome: how many reads had it since the last hand-over. */
interface CacheSeries {
  readonly counter: { inc(value: number): void };
  count: number;
}
