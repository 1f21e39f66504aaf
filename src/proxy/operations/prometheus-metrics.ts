import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { ProxyMetrics } from './metrics.ts';

/**
 * `ProxyMetrics` on prom-client, in a registry of its own (several proxies may share a process in tests), with
 * Node's default process metrics. `activeSessions` is read at scrape time.
 */
export function prometheusMetrics(activeSessions: () => Promise<number | undefined>): ProxyMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'fan_polls_' });
  const requests = new Counter({
    name: 'fan_polls_http_requests_total',
    help: 'Requests answered, by route pattern, method and status.',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'fan_polls_http_request_duration_seconds',
    help: 'Time to answer a request, by route pattern.',
    labelNames: ['route', 'method'] as const,
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
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
  });
  const refusals = new Counter({
    name: 'fan_polls_refusals_total',
    help: 'Requests refused on purpose, by reason (the error code answered).',
    labelNames: ['reason'] as const,
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
  // A label set's child, looked up once: hashing the labels on every request costs more than the count itself.
  const requestSeries = new Map<string, { count: () => void; time: (seconds: number) => void }>();
  const cacheSeries = new Map<string, { inc: () => void }>();
  return {
    request: (route, method, status, seconds) => {
      const key = `${method} ${route} ${status}`;
      let series = requestSeries.get(key);
      if (series === undefined) {
        const counter = requests.labels(route, method, String(status));
        const histogram = latency.labels(route, method);
        series = {
          count: () => {
            counter.inc();
          },
          time: (value) => {
            histogram.observe(value);
          },
        };
        requestSeries.set(key, series);
      }
      series.count();
      series.time(seconds);
    },
    upstream: (operation, outcome) => {
      upstream.inc({ operation, outcome });
    },
    cache: (outcome) => {
      // Once per public read: the outcome's child, looked up once (see `requestSeries`).
      let child = cacheSeries.get(outcome);
      if (child === undefined) {
        child = cache.labels(outcome);
        cacheSeries.set(outcome, child);
      }
      child.inc();
    },
    refusal: (reason) => {
      refusals.inc({ reason });
    },
    render: async () => ({ contentType: registry.contentType, body: await registry.metrics() }),
  };
}
