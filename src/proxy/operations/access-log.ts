import type { MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import type { ProxyLogger } from '../logger.ts';
import type { ProxyMetrics } from './metrics.ts';

export const requestIdHeader = 'X-Request-Id';
const acceptableRequestId = /^[A-Za-z0-9._:-]{1,64}$/;

declare module 'hono' {
  interface ContextVariableMap {
    /** This request's id (`X-Request-Id`), for routes that build their whole answer themselves. */
    requestId: string;
  }
}

/**
 * One access log line per request (`info`, so FAN_POLLS_LOG_LEVEL=warn turns them off) with a request id, the
 * route pattern (never the query, which may carry a code or a state), the status and the latency; the same figures
 * go to the metrics. A request id from the load balancer is kept when it looks like one; otherwise a fresh one.
 * Every answer carries it in `X-Request-Id`, so a fan's report can be matched to the line.
 */
export function accessLog(logger: ProxyLogger, metrics: ProxyMetrics): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    const requestId = requestIdFrom(c.req.header(requestIdHeader));
    // `everyAnswerHeaders` (app.ts) puts it in the answer.
    c.set('requestId', requestId);
    await next();
    recordRequest(logger, metrics, {
      requestId,
      method: c.req.method,
      route: routeOf(c),
      status: c.res.status,
      started,
    });
  };
}

/** The request id to use: the load balancer's `X-Request-Id` when it looks like one, otherwise a fresh one. */
export function requestIdFrom(incoming: string | undefined): string {
  return incoming !== undefined && acceptableRequestId.test(incoming) ? incoming : crypto.randomUUID();
}

/** One answered request, as the access log and the metrics record it. */
export interface AnsweredRequest {
  readonly requestId: string;
  readonly method: string;
  /** The route pattern (`/api/polls/:pollId`), never the path or its query. */
  readonly route: string;
  readonly status: number;
  /** `performance.now()` when the request arrived. */
  readonly started: number;
}

/** The access log's line and the metrics for one answered request: the one owner of both, for every writer. */
export function recordRequest(logger: ProxyLogger, metrics: ProxyMetrics, answered: AnsweredRequest): void {
  const seconds = (performance.now() - answered.started) / 1000;
  metrics.request(answered.route, answered.method, answered.status, seconds);
  logger.log('info', 'request', {
    requestId: answered.requestId,
    method: answered.method,
    route: answered.route,
    status: answered.status,
    ms: Math.round(seconds * 10_000) / 10,
  });
}

/** The route pattern that answered (`/api/polls/:pollId`), or `unmatched`. */
function routeOf(c: Parameters<MiddlewareHandler>[0]): string {
  const handlers = matchedRoutes(c).filter((route) => route.method !== 'ALL');
  return handlers.at(-1)?.path ?? 'unmatched';
}
