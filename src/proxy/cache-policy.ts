import { pollStreamPath } from '../contracts/poll-stream-contract.ts';
import type { MiddlewareHandler } from 'hono';
import { proxyRouteGroups } from '../contracts/proxy-contract.ts';
import { shareRouteGroups } from '../contracts/share-contract.ts';

/**
 * What a shared cache in front of the proxy (nginx, a CDN) may keep. Only the public reads are cacheable: the poll
 * reads and the drawn card, the banner's page and the widget's files, the configurator's page and files, a poll's share
 * page and image and the oEmbed answer. Each of them sets its own policy.
 */
const cacheableRouteGroups: readonly string[] = [
  proxyRouteGroups.polls,
  proxyRouteGroups.widget,
  proxyRouteGroups.configurator,
  shareRouteGroups.share,
  shareRouteGroups.oembed,
];

/** Everything personal or state-changing: no cache, shared or private, may keep it. */
export const privateAnswerPolicy = 'private, no-store';

/** Paths inside a cacheable group that no cache may keep: the live poll stream (`no-store` of its own too). */
const uncacheablePaths: readonly string[] = [pollStreamPath];

export const isInCacheableGroup = (path: string): boolean =>
  cacheableRouteGroups.some((group) => path === group || path.startsWith(`${group}/`)) &&
  !uncacheablePaths.includes(path);

/**
 * Marks every answer outside the cacheable groups `private, no-store`, whatever its route set: sign-in, the session,
 * the fan's reads and votes, the extension's tokens, the origin check, health, readiness and metrics. So a route added
 * later cannot forget it, and a cache in front never stores a `Set-Cookie` or a fan's data. A GET in a cacheable group
 * keeps its own policy (checked before the handler runs, so the cached read pays one prefix test).
 */
export function privateUnlessCacheable(): MiddlewareHandler {
  return async (c, next) => {
    if ((c.req.method === 'GET' || c.req.method === 'HEAD') && isInCacheableGroup(c.req.path)) return next();
    await next();
    try {
      c.res.headers.set('Cache-Control', privateAnswerPolicy);
    } catch {
      // An answer with immutable headers (a fetched Response passed on): a copy carries the policy.
      const answer = new Response(c.res.body, c.res);
      answer.headers.set('Cache-Control', privateAnswerPolicy);
      c.res = answer;
    }
  };
}
