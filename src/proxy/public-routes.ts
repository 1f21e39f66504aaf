import { pollStreamPath } from '../contracts/poll-stream-contract.ts';
import { Hono, type Context } from 'hono';
import { PlatformError } from '../platform/errors.ts';
import {
  checkUuid,
  encodePollFilters,
  parsePollFilters,
  queryString,
  type PollFilters,
} from '../platform/query.ts';
import { currentPollPath } from '../contracts/current-poll-contract.ts';
import {
  currentPollHandler,
  currentPollPicker,
  currentPollReader,
  type CurrentPollReads,
} from './current-poll-route.ts';
import {
  proxyPollsRoute,
  proxyRouteGroups,
  proxyRoutePatterns,
  routeInGroup,
} from '../contracts/proxy-contract.ts';
import { drawnCardPattern, drawnCurrentCardPath } from '../contracts/drawn-card-contract.ts';
import { cachedReadAnswer, type PollCacheHeaders } from './cached-read-answer.ts';
import { allowedOriginOf, corsForPrebuiltAnswers } from './cors.ts';
import { withContentCoding } from './content-coding.ts';
import { drawnCard, drawnCardContentType } from './drawn-card.ts';
import type { CardRenderer } from './drawn-per-answer.ts';
import { pollStreamHandler } from './poll-stream/poll-stream-route.ts';
import { checkedInput } from './request-guards.ts';
import { ProxyError } from './errors.ts';
import type { CachedAnswer } from './response-cache.ts';
import type { ProxyRuntime } from './runtime.ts';

/** Filters whose every value is a new cache entry: anonymous callers may not send them unless the partner allows. */
const freeTextFilters = ['search', 'cursor'] as const;

/** How long a CDN may serve a stale answer while it refreshes, and when the proxy fails. */
export const staleWhileRevalidateSeconds = 30;
export const staleIfErrorSeconds = 600;

/**
 * Public poll reads for every visitor: the spec's filters checked and put in one canonical order, answers cached
 * per normalized query with concurrent misses coalesced, `ETag`/304, and CDN headers so a CDN absorbs a crowd. With
 * `renderCard` (Lit SSR), a poll's card drawn as HTML from its cached read, answered as that read is, and a `current`
 * card's from its clubs' current poll.
 */
export function publicRoutes(runtime: ProxyRuntime, renderCard?: CardRenderer): Hono {
  const app = new Hono();
  app.use('*', corsForPrebuiltAnswers(runtime.isAllowedPage, { credentials: false, methods: ['GET'] }));
  const cacheHeaders = pollCacheHeaders(runtime.config.pollCacheSeconds);
  const answer = (c: Context, cached: CachedAnswer, contentType?: string) =>
    cachedResponse(
      c,
      cached,
      cacheHeaders,
      allowedOriginOf(c, runtime.isAllowedPage),
      runtime.now(),
      contentType,
    );

  app.get(routeInGroup(proxyRouteGroups.polls, proxyPollsRoute), async (c) => {
    const query = new URL(c.req.url).searchParams;
    if (!runtime.config.publicSearch) {
      for (const name of freeTextFilters) {
        if (query.has(name)) {
          throw new ProxyError('invalid_filter', `${name} is not available on public reads of this proxy.`);
        }
      }
    }
    const filters = checkedInput(() => parsePollFilters(query, 'polls'));
    return answer(c, await readPublicList(runtime, c, filters));
  });

  const currentReads: CurrentPollReads = { ...publicListReads(runtime), answer };
  const readCurrent = currentPollReader(runtime, currentReads);
  // Before the single poll's routes, whose `:pollId` would take `current`.
  app.get(
    routeInGroup(proxyRouteGroups.polls, currentPollPath),
    currentPollHandler(readCurrent, currentReads),
  );
  // A `current` card drawn with its clubs' current poll, as the card of a poll id is (no poll current: not drawn).
  app.get(routeInGroup(proxyRouteGroups.polls, drawnCurrentCardPath), async (c) => {
    const query = new URL(c.req.url).searchParams;
    const card = await drawnCard(runtime, undefined, query, readCurrent(c), renderCard);
    return withContentCoding(answer(c, card, drawnCardContentType), card.gzipped, c);
  });

  // Before the single poll's route, whose `:pollId` would take `stream`.
  app.get(
    routeInGroup(proxyRouteGroups.polls, pollStreamPath),
    pollStreamHandler(runtime, {
      renew: (pollId, maxAgeMs) => renewPublicPoll(runtime, pollId, maxAgeMs),
      cacheKeyOf: publicPollKey,
    }),
  );

  app.get(routeInGroup(proxyRouteGroups.polls, proxyRoutePatterns.poll), async (c) => {
    const pollId = checkedInput(() => checkUuid(c.req.param('pollId'), 'pollId'));
    return answer(c, await readPublicPoll(runtime, c, pollId));
  });

  // Registered without a renderer too: its answer then says that the card is not drawn here (`drawn-card.ts`).
  app.get(routeInGroup(proxyRouteGroups.polls, drawnCardPattern), async (c) => {
    const pollId = checkedInput(() => checkUuid(c.req.param('pollId'), 'pollId')).toLowerCase();
    const query = new URL(c.req.url).searchParams;
    const read = () => readPublicPoll(runtime, c, pollId);
    const card = await drawnCard(runtime, pollId, query, read, renderCard);
    return withContentCoding(answer(c, card, drawnCardContentType), card.gzipped, c);
  });

  return app;
}

/** The cached public reads a current poll is picked from and kept as (`current-poll-route.ts`). */
function publicListReads(runtime: ProxyRuntime): Pick<CurrentPollReads, 'readList' | 'keepPoll'> {
  return {
    readList: (c, filters) => readPublicList(runtime, c, filters),
    keepPoll: (pollId, kept) => {
      runtime.pollCache.put(publicPollKey(pollId), kept.one);
      runtime.pollCache.put(publicListKey({ ids: [pollId], limit: 1 }), kept.asList);
    },
  };
}

/**
 * The partners' current poll (`partnerIds` as `partnerIdsOf` gives them) from the proxy's cached public list, as
 * `/api/polls/current` answers it: what a `current` banner's page is drawn with.
 */
export function publicCurrentPoll(
  runtime: ProxyRuntime,
): (c: Context, partnerIds: readonly string[]) => Promise<CachedAnswer> {
  return currentPollPicker(runtime, publicListReads(runtime));
}

/** The public list with these filters: the proxy's cached answer, one entry per canonical query. */
function readPublicList(runtime: ProxyRuntime, c: Context, filters: PollFilters): Promise<CachedAnswer> {
  return runtime.pollCache.get(
    publicListKey(filters),
    () => fromPlatform(runtime, c, () => runtime.platform.publicClient.listPolls(filters)),
    isPlatformFailure,
  );
}

/**
 * One poll's public read (`pollId` a checked UUID): the proxy's cached answer, loaded from the platform on a miss. What
 * `/api/polls/:id` answers, and what the banner's iframe page is drawn with.
 */
export function readPublicPoll(runtime: ProxyRuntime, c: Context, pollId: string): Promise<CachedAnswer> {
  const id = pollId.toLowerCase();
  return runtime.pollCache.get(
    publicPollKey(id),
    () => fromPlatform(runtime, c, () => runtime.platform.publicClient.getPoll(id)),
    isPlatformFailure,
  );
}

/**
 * One poll's public read as the poll streams' refresher needs it (`poll-stream/`): the cached answer while fresh, else
 * its reload awaited. Spends the public-read budget (no client's: the refresher reads for every watcher).
 */
export function renewPublicPoll(
  runtime: ProxyRuntime,
  pollId: string,
  maxAgeMs?: number,
): Promise<CachedAnswer> {
  const id = pollId.toLowerCase();
  return runtime.pollCache.renew(
    publicPollKey(id),
    () => fromPlatform(runtime, undefined, () => runtime.platform.publicClient.getPoll(id)),
    isPlatformFailure,
    maxAgeMs,
  );
}

/** The poll cache's key for a public list read: its filters in canonical order (what a card's read of one poll asks). */
function publicListKey(filters: PollFilters): string {
  return `polls${queryString(encodePollFilters(filters, 'polls'))}`;
}

/** The poll cache's key for one poll's public read (`pollId` a checked UUID). */
export function publicPollKey(pollId: string): string {
  return `poll/${pollId.toLowerCase()}`;
}

/** A cache miss's load: the public-read budget spent, then the platform's answer as the body browsers get. */
async function fromPlatform(
  runtime: ProxyRuntime,
  c: Context | undefined,
  read: () => Promise<unknown>,
): Promise<string> {
  // Throttling and outages are held in one place for every platform call (`platform-guard.ts`); here, the budget.
  await spendPublicRead(runtime, c);
  try {
    return JSON.stringify({ data: await read() });
  } catch (error) {
    throw applicationTokenRefused(error) ?? error;
  }
}

/**
 * Failures a poll read remembers for a freshness window (the cache's negative memory): what the platform answered
 * or failed to (garbage, a 5xx, no answer, no such poll, refused credentials, a 429 or the guard's hold, whose
 * Retry-After the remembered error still carries). Not the proxy's own budgets (they are per client or per minute).
 */
function isPlatformFailure(error: unknown): boolean {
  if (error instanceof PlatformError) return error.code !== 'invalid_input';
  return error instanceof ProxyError && error.code === 'upstream_unavailable';
}

/**
 * The platform refused the application's own token (after one fresh one): the proxy's credentials, not a visitor's
 * sign-in, so never `not_signed_in` (a card would offer sign-in to fix it).
 */
function applicationTokenRefused(error: unknown): ProxyError | undefined {
  if (!(error instanceof PlatformError && error.code === 'invalid_token')) return undefined;
  return new ProxyError(
    'upstream_unavailable',
    'The platform refused the proxy’s credentials. Try again later.',
    {
      cause: error,
    },
  );
}

/**
 * Browsers revalidate every read and never answer one from a stale copy (`max-age=0, must-revalidate`: with the
 * ETag a 304 costs no body), so a card never shows a count older than the read that fetched it. A shared cache keeps
 * the answer `freshSeconds` (`s-maxage`); a CDN that reads `CDN-Cache-Control` (RFC 9213) may also serve it stale
 * while it refreshes and when the proxy fails, which browsers never see.
 */
export function pollCacheHeaders(freshSeconds: number): PollCacheHeaders {
  return {
    'Cache-Control': `public, max-age=0, must-revalidate, s-maxage=${freshSeconds}`,
    'CDN-Cache-Control': `public, max-age=${freshSeconds}, stale-while-revalidate=${staleWhileRevalidateSeconds}, stale-if-error=${staleIfErrorSeconds}`,
  };
}

/** The whole answer of a cached read (`cachedReadAnswer`), as a Response. */
function cachedResponse(
  c: Context,
  cached: CachedAnswer,
  cacheHeaders: PollCacheHeaders,
  allowedOrigin: string | undefined,
  now: number,
  contentType?: string,
): Response {
  const answer = cachedReadAnswer(
    cached,
    cacheHeaders,
    {
      allowedOrigin,
      ifNoneMatch: c.req.header('If-None-Match'),
      requestId: c.get('requestId'),
      now,
    },
    contentType,
  );
  return new Response(answer.body, { status: answer.status, headers: answer.headers });
}

/**
 * A public cache miss costs one platform read: counted per client address (cache-busting queries from one client)
 * and against the budget of all public reads, which leaves the rest of the application's quota to fans. Over either,
 * the miss is refused (a cached copy, if any, is still served). When the shared counters do not answer (Redis
 * away), public reads go on: the platform guard still holds a 429.
 */
async function spendPublicRead(runtime: ProxyRuntime, c: Context | undefined): Promise<void> {
  const counted = async (take: () => Promise<number | undefined>) => {
    try {
      return await take();
    } catch {
      return undefined;
    }
  };
  const perClient =
    c === undefined
      ? undefined
      : await counted(() => runtime.state.publicMissLimiter.take(runtime.clientAddress(c)));
  if (perClient !== undefined) {
    throw new ProxyError('rate_limited', 'Too many different poll reads from this address. Wait a minute.', {
      retryAfterSeconds: perClient,
    });
  }
  const budget = await counted(() => runtime.state.publicReadBudget.take('all'));
  if (budget !== undefined) {
    throw new ProxyError('upstream_throttled', 'Poll reads are paused for a moment. Try again shortly.', {
      retryAfterSeconds: budget,
    });
  }
}
