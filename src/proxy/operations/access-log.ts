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
    const incoming = c.req.header(requestIdHeader);
    const requestId =
      incoming !== undefined && acceptableRequestId.test(incoming) ? incoming : crypto.randomUUID();
    // `everyAnswerHeaders` (app.ts) puts it in the answer.
    c.set('requestId', requestId);
    await next();
    const seconds = (performance.now() - started) / 1000;
    const route = routeOf(c);
    const status = c.res.status;
    metrics.request(route, c.req.method, status, seconds);
    logger.log('info', 'request', {
      requestId,
      method: c.req.method,
      route,
      status,
      ms: Math.round(seconds * 10_000) / 10,
    });
  };
}

/** The route pattern that answered (`/api/polls/:pollId`), or `unmatched`. */
function routeOf(c: Parameters<MiddlewareHandler>[0]): string {
  const handlers = matchedRoutes(c).filter((route) => route.method !== 'ALL');
  return handlers.at(-1)?.path ?? 'unmatched';
}
