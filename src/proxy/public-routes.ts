import { Hono, type Context } from 'hono';
import { checkUuid, encodePollFilters, parsePollFilters, queryString } from '../platform/query.ts';
import { corsFromAllowlist } from './cors.ts';
import { checkedInput } from './request-guards.ts';
import { ifNoneMatchHits, type CachedAnswer } from './response-cache.ts';
import type { ProxyRuntime } from './runtime.ts';

/** How long a CDN may serve a stale answer while it refreshes, and when the proxy fails. */
export const staleWhileRevalidateSeconds = 30;
export const staleIfErrorSeconds = 600;

/**
 * Public poll reads for every visitor: the spec's filters checked and put in one canonical order, answers cached
 * per normalized query with concurrent misses coalesced, `ETag`/304, and CDN headers so a CDN absorbs a crowd.
 */
export function publicRoutes(runtime: ProxyRuntime): Hono {
  const app = new Hono();
  app.use('*', corsFromAllowlist(runtime.isAllowedPage, { credentials: false, methods: ['GET'] }));

  // Throttling and outages are held in one place for every platform call (`platform-guard.ts`).
  const fromPlatform = async (read: () => Promise<unknown>): Promise<string> =>
    JSON.stringify({ data: await read() });

  app.get('/', async (c) => {
    const filters = checkedInput(() => parsePollFilters(new URL(c.req.url).searchParams, 'polls'));
    const canonical = queryString(encodePollFilters(filters, 'polls'));
    const answer = await runtime.pollCache.get(`polls${canonical}`, () =>
      fromPlatform(() => runtime.platform.publicClient.listPolls(filters)),
    );
    return cachedResponse(c, answer, runtime.config.pollCacheSeconds);
  });

  app.get('/:pollId', async (c) => {
    const pollId = checkedInput(() => checkUuid(c.req.param('pollId'), 'pollId')).toLowerCase();
    const answer = await runtime.pollCache.get(`poll/${pollId}`, () =>
      fromPlatform(() => runtime.platform.publicClient.getPoll(pollId)),
    );
    return cachedResponse(c, answer, runtime.config.pollCacheSeconds);
  });

  return app;
}

/**
 * Browsers revalidate every read and never answer one from a stale copy (`max-age=0, must-revalidate`: with the
 * ETag a 304 costs no body), so a card never shows a count older than the read that fetched it. A shared cache keeps
 * the answer `freshSeconds` (`s-maxage`); a CDN that reads `CDN-Cache-Control` (RFC 9213) may also serve it stale
 * while it refreshes and when the proxy fails, which browsers never see.
 */
export function pollCacheHeaders(freshSeconds: number): Readonly<Record<string, string>> {
  return {
    'Cache-Control': `public, max-age=0, must-revalidate, s-maxage=${freshSeconds}`,
    'CDN-Cache-Control': `public, max-age=${freshSeconds}, stale-while-revalidate=${staleWhileRevalidateSeconds}, stale-if-error=${staleIfErrorSeconds}`,
  };
}

function cachedResponse(c: Context, answer: CachedAnswer, freshSeconds: number): Response {
  for (const [name, value] of Object.entries(pollCacheHeaders(freshSeconds))) c.header(name, value);
  c.header('ETag', answer.etag);
  if (ifNoneMatchHits(c.req.header('If-None-Match'), answer.etag)) return c.body(null, 304);
  c.header('Content-Type', 'application/json; charset=utf-8');
  return c.body(answer.body, 200);
}
