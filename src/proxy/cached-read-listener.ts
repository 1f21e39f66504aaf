import { proxyRoutePatterns, proxyRoutes } from '../contracts/proxy-contract.ts';
import type { FirstListener } from '../node/loopback-server.ts';
import { isUuid } from '../platform/query.ts';
import { cachedReadAnswer } from './cached-read-answer.ts';
import { recordRequest, requestIdFrom } from './operations/access-log.ts';
import type { ProxyMetrics } from './operations/metrics.ts';
import { pollCacheHeaders, publicPollKey } from './public-routes.ts';
import type { ProxyRuntime } from './runtime.ts';

/**
 * The proxy's hot path on Node, answered before Hono: a public read of one poll whose cached answer `get`
 * would give at once (fresh, or stale while its refresh runs), which on match day is nearly every request. It writes
 * what the Hono route would (`cachedReadAnswer`, byte for byte), with the same access log line and metrics
 * (`recordRequest`), and skips only work that such a request does not need: the router, the middleware chain, a
 * Request and a Response object. Everything else goes on to Hono, which answers it as ever: a missing entry, a stale
 * one whose refresh has not started (its first reader starts it), a query, a body, another method or an odd path.
 */
export function cachedPollReadListener(runtime: ProxyRuntime, metrics: ProxyMetrics): FirstListener {
  const prefix = proxyRoutes.poll('');
  const route = proxyRoutePatterns.poll;
  const cacheHeaders = pollCacheHeaders(runtime.config.pollCacheSeconds);
  return (request, response) => {
    const url = request.url;
    if (request.method !== 'GET' || url === undefined || !url.startsWith(prefix)) return false;
    const pollId = url.slice(prefix.length);
    if (!isUuid(pollId)) return false;
    const headers = request.headers;
    // A body, however small, is the body limit's to judge.
    if (headers['content-length'] !== undefined || headers['transfer-encoding'] !== undefined) return false;
    const started = performance.now();
    const cached = runtime.pollCache.atOnce(publicPollKey(pollId));
    if (cached === undefined) return false;
    const origin = headers.origin;
    const requestId = requestIdFrom(singleValue(headers['x-request-id']));
    const answer = cachedReadAnswer(cached, cacheHeaders, {
      allowedOrigin: origin !== undefined && runtime.isAllowedPage(origin) ? origin : undefined,
      ifNoneMatch: headers['if-none-match'],
      requestId,
      now: runtime.now(),
    });
    response.writeHead(answer.status, answer.headers);
    if (answer.body === null) response.end();
    else response.end(answer.body);
    recordRequest(runtime.logger, metrics, {
      requestId,
      method: 'GET',
      route,
      status: answer.status,
      started,
    });
    return true;
  };
}

/** A header's value as one string (Node joins a repeated one; only `set-cookie` comes as a list). */
function singleValue(value: string | string[] | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
