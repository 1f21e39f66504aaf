/**
 * What the proxy counts, as an interface: the app calls these and knows nothing of Prometheus, so it stays on the
 * fetch API alone; `prometheus-metrics.ts` (Node, prom-client) implements it for `/metrics`.
 */
export type CacheOutcome = 'hit' | 'stale' | 'miss' | 'coalesced' | 'stale_on_error' | 'stale_on_slow';

export interface ProxyMetrics {
  /** One answered request: its route pattern, method, status and time taken. */
  request(route: string, method: string, status: number, seconds: number): void;
  /** One call to the platform: which operation, and how it ended (HTTP status class or a failure code). */
  upstream(operation: string, outcome: string): void;
  cache(outcome: CacheOutcome): void;
  /** A request refused on purpose: rate limits, bad input, origin and CSRF checks, the platform unreachable. */
  refusal(reason: string): void;
  /** One analytics event counted (`analytics-contract.ts`'s kinds): no poll, campaign or other label. */
  analyticsEvent?(kind: string): void;
  /** The Prometheus text exposition, when this implementation has one. */
  render?(): Promise<{ contentType: string; body: string }>;
}

/** The live poll streams' figures of one instance, read at scrape time (`PollStreamHub` has them). */
export interface PollStreamFigures {
  /** Streams open now. */
  readonly streams: number;
  /** Polls the open streams watch now. */
  readonly watched: number;
  /** Poll events sent down the streams so far. */
  readonly eventsSent: number;
  /** Platform refreshes of watched polls this instance made so far. */
  readonly refreshes: number;
  /** Streams refused so far, by the cap they met. */
  readonly refused: Readonly<Record<'instance' | 'client', number>>;
}

export const noMetrics: ProxyMetrics = {
  request: () => undefined,
  upstream: () => undefined,
  cache: () => undefined,
  refusal: () => undefined,
};
