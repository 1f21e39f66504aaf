import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { CacheOutcome, PollStreamFigures, ProxyMetrics } from './metrics.ts';

/**
 * How many requests' figures wait at most before they are handed to prom-client when no scrape comes: small enough
 * that a hand-over holds the requests behind it a fraction of a millisecond (the p99 at half load).
 */
export const metricsBatchSize = 256;

/**
 * `ProxyMetrics` on prom-client, in a registry of its own (several proxies may share a process in tests), with
 * Node's default process metrics. `activeSessions` and `pollStreams` (undefined where the instance holds no streams)
 * are read at scrape time: the streams' hot path (an event to each of thousands of streams) counts in plain numbers.
 *
 * The per-request figures (a request's count and time, a poll read's cache outcome) are kept in plain numbers and
 * handed to prom-client in batches: when a scrape reads those metrics (their `collect`) and every `metricsBatchSize`
 * requests, so what waits stays bounded when no one scrapes. A scrape sees every request answered before it; a
 * request costs an array push instead of prom-client's label hashing.
 */
export function prometheusMetrics(
  activeSessions: () => Promise<number | undefined>,
  pollStreams: () => PollStreamFigures | undefined = () => undefined,
): ProxyMetrics {
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
  pollStreamMetrics(registry, pollStreams);
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

/**
 * The live poll streams' gauges and counters, each read from the instance's figures when scraped; a counter is raised
 * by what its figure grew since the last scrape.
 */
function pollStreamMetrics(registry: Registry, pollStreams: () => PollStreamFigures | undefined): void {
  const grown = (read: (figures: PollStreamFigures) => number) => {
    let seen = 0;
    return () => {
      const figures = pollStreams();
      const now = figures === undefined ? seen : read(figures);
      const growth = Math.max(0, now - seen);
      seen = Math.max(seen, now);
      return growth;
    };
  };
  new Gauge({
    name: 'fan_polls_poll_streams_open',
    help: 'Live poll streams (/api/polls/stream) open on this instance.',
    registers: [registry],
    collect() {
      this.set(pollStreams()?.streams ?? 0);
    },
  });
  new Gauge({
    name: 'fan_polls_poll_streams_watched_polls',
    help: 'Polls the open live poll streams of this instance watch (each refreshed once per freshness window).',
    registers: [registry],
    collect() {
      this.set(pollStreams()?.watched ?? 0);
    },
  });
  const eventsGrowth = grown((figures) => figures.eventsSent);
  new Counter({
    name: 'fan_polls_poll_stream_events_total',
    help: 'Poll events sent down the live poll streams of this instance (one per stream a new copy reached).',
    registers: [registry],
    collect() {
      this.inc(eventsGrowth());
    },
  });
  const refreshesGrowth = grown((figures) => figures.refreshes);
  new Counter({
    name: 'fan_polls_poll_stream_refreshes_total',
    help: 'Platform reads this instance made to refresh watched polls for every instance’s streams.',
    registers: [registry],
    collect() {
      this.inc(refreshesGrowth());
    },
  });
  const refusedGrowth = {
    instance: grown((figures) => figures.refused.instance),
    client: grown((figures) => figures.refused.client),
  };
  new Counter({
    name: 'fan_polls_poll_streams_refused_total',
    help: 'Live poll streams refused with 503 streams_full (the page reads instead), by the cap met: the instance’s or the client address’s.',
    labelNames: ['cap'] as const,
    registers: [registry],
    collect() {
      for (const cap of ['instance', 'client'] as const) this.inc({ cap }, refusedGrowth[cap]());
    },
  });
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
