import { analyticsRouteGroup } from '../contracts/analytics-contract.ts';
import { Hono, type Context } from 'hono';
import { analyticsRoutes } from './analytics/analytics-routes.ts';
import { proxyAnalytics } from './analytics/proxy-analytics.ts';
import { proxyRouteGroups } from '../contracts/proxy-contract.ts';
import { globalFetch, type FetchLike } from '../platform/http.ts';
import type { ProxyConfig } from './config.ts';
import { isLoopbackOrigin } from '../contracts/loopback-origins.ts';
import { originCheckRoute } from '../contracts/origin-check-contract.ts';
import { originRoutes } from './origin-routes.ts';
import { limitRequestBodies } from './body-limit.ts';
import { privateUnlessCacheable } from './cache-policy.ts';
import { clientAddressReader } from './client-address.ts';
import { configuratorRoutes } from './configurator-routes.ts';
import { errorExit } from './error-exit.ts';
import { everyAnswerHeaders } from './every-answer.ts';
import { ProxyError } from './errors.ts';
import { extensionRoutes } from './extension-routes.ts';
import { fanRoutes } from './fan-routes.ts';
import { createJsonLogger, type LogSink, type ProxyLogger } from './logger.ts';
import { accessLog } from './operations/access-log.ts';
import { countedFetch } from './operations/counted-fetch.ts';
import { noMetrics, type ProxyMetrics } from './operations/metrics.ts';
import { opsRoutes } from './operations/ops-routes.ts';
import { createPlatformAccess } from './platform-access.ts';
import { createPlatformGuard } from './platform-guard.ts';
import { publicRoutes, staleIfErrorSeconds, staleWhileRevalidateSeconds } from './public-routes.ts';
import { ResponseCache } from './response-cache.ts';
import { wellFormedPaths } from './request-path.ts';
import type { ProxyRuntime } from './runtime.ts';
import { memoryProxyState, type ProxyStateFactory } from './state/proxy-state.ts';
import { defaultSessionOptions, type SessionStoreOptions } from './state/session-store.ts';
import { signInRoutes } from './sign-in-routes.ts';
import { sessionIdReader } from './session-cookie.ts';
import { frameCredentials, frameSessionIdReader } from './frame-session.ts';
import type { FileReader } from './file-reader.ts';
import { widgetRoutes } from './widget-routes.ts';
import type { CardRenderer } from './drawn-per-answer.ts';
import type { ShareImageRenderer } from './share/share-image.ts';
import { oembedRoutes, shareRoutes } from './share/share-routes.ts';
import { shareRouteGroups } from '../contracts/share-contract.ts';

export interface ProxyDeps {
  /** Every request to the platform goes through it (tests count and route them). */
  readonly fetch?: FetchLike;
  readonly logger?: ProxyLogger;
  /** Where the default JSON logger writes (default: the console); ignored when `logger` is given. */
  readonly logSink?: LogSink;
  readonly now?: () => number;
  /** The caller's address for the sign-in rate limit; the Node adapter passes the socket's. */
  readonly clientAddress?: (c: Context) => string;
  /** Over `defaultSessionOptions` (tests: small caps, short lifetimes). */
  readonly sessions?: Partial<Omit<SessionStoreOptions, 'now'>>;
  /**
   * Where the state lives (default: this instance's memory). Injected by the runtime adapter, so that the app imports
   * no backend's client: Node's `serve.ts` gives `redisProxyState` when `config.redisUrl` is set, the Workers entry
   * `durableObjectProxyState`.
   */
  readonly state?: ProxyStateFactory;
  /**
   * Given every piece of work that goes on after the response that started it (the poll cache's background refresh,
   * the platform guard's shared-hold reads and writes), so the runtime keeps it alive: Workers end a request's
   * promises with its response unless handed to `waitUntil`. Node: nothing to do (the default).
   */
  readonly waitUntil?: (work: Promise<unknown>) => void;
  /** What the proxy counts (Node: prom-client, served at `/metrics`); default: nothing. */
  readonly metrics?: ProxyMetrics;
  /** The built widget's files, served under `/widget/` (Node: `dist/widget/`); none: no `/widget/` routes. */
  readonly widgetFiles?: FileReader;
  /**
   * Draws the banner's card into its iframe page and the drawn card of `/api/polls/:pollId/card` (`renderFanPoll`,
   * Lit SSR; Node and the Workers entry give it); none: the page goes out undrawn, the drawn card is refused, and
   * either card reads the poll in the browser.
   */
  readonly renderFrameCard?: CardRenderer;
  /** The built embed configurator, served under `/configurator/` (Node: `dist/configurator/`); none: no such route. */
  readonly configuratorFiles?: FileReader;
  /**
   * Draws a poll's share image (`/share/polls/<id>.png`: satori and resvg-wasm, from `serve.ts` or `edge-app.ts`);
   * none: the share page names no image and the image's route answers 404 `share_image_not_drawn`.
   */
  readonly renderShareImage?: ShareImageRenderer;
}

/** How long a reader of a cached poll waits for a slow platform before it gets the cached copy. */
export const staleOnSlowMs = 1500;

/** The largest request body any route takes. */
const maxBodyBytes = 16 * 1024;

export interface ProxyApp {
  readonly app: Hono;
  readonly runtime: ProxyRuntime;
}

/**
 * The partner proxy as a Hono app on the standard fetch API only (no Node APIs), so it runs on Node (`serve.ts`)
 * or an edge runtime. It is the only holder of the client secret.
 */
export function createProxyApp(config: ProxyConfig, deps: ProxyDeps = {}): ProxyApp {
  const now = deps.now ?? Date.now;
  const logger =
    deps.logger ??
    createJsonLogger([config.clientSecret, config.sessionSecret], deps.logSink, config.logLevel);
  const metrics = deps.metrics ?? noMetrics;
  const countedPlatformFetch = countedFetch(deps.fetch ?? globalFetch, metrics);
  const freshMs = config.pollCacheSeconds * 1000;
  const sessionOptions: SessionStoreOptions = { ...defaultSessionOptions, ...deps.sessions, now };
  // The fan's refresh needs the OAuth client, which needs the shared application token's keeper: tied up here.
  const refresh = (refreshToken: string) => platform.oauth.refresh(refreshToken);
  const state = (deps.state ?? memoryProxyState)({ config, logger, now, sessionOptions, refresh });
  const waitUntil = deps.waitUntil ?? (() => undefined);
  const guard = createPlatformGuard(countedPlatformFetch, {
    now,
    logger,
    shared: state.platformHold,
    waitUntil,
  });
  const platformFetch = guard.fetch;
  const platform = createPlatformAccess(config, platformFetch, now, state.applicationTokens);
  const ownOrigin = new URL(config.publicUrl).origin;
  const frameSessionCredentials = frameCredentials(config.sessionSecret);
  const runtime: ProxyRuntime = {
    config,
    logger,
    now,
    platform,
    state,
    sessions: state.sessions,
    pollCache: new ResponseCache({
      freshMs,
      staleWhileRevalidateMs: Math.min(staleWhileRevalidateSeconds * 1000, freshMs * 2),
      staleIfErrorMs: staleIfErrorSeconds * 1000,
      staleOnSlowMs: staleOnSlowMs,
      maxEntries: 5000,
      now,
      onOutcome: (outcome) => {
        metrics.cache(outcome);
      },
      waitUntil,
    }),
    signInLimiter: state.signInLimiter,
    tokenMediationLimiter: state.tokenMediationLimiter,
    clientAddress: clientAddressReader(
      config.clientAddressHeader,
      config.trustedProxyHops,
      deps.clientAddress ?? (() => 'unknown'),
    ),
    // The proxy's own pages (the iframe banner's page, the configurator) are the partner's too: they sign fans in.
    isAllowedPage: (origin) =>
      origin === ownOrigin ||
      config.allowedOrigins.includes(origin) ||
      (config.allowLoopbackOrigins && isLoopbackOrigin(origin)),
    sessionCookieMaxAge: Math.floor(sessionOptions.idleMs / 1000),
    frameCredentials: frameSessionCredentials,
    readSessionId: frameSessionIdReader(
      frameSessionCredentials,
      ownOrigin,
      sessionIdReader(config.sessionSecret, config.publicUrl.startsWith('http:')),
    ),
    servedOverPlainHttp: config.publicUrl.startsWith('http:'),
    analytics: proxyAnalytics({
      enabled: config.analytics,
      retentionDays: config.analyticsRetentionDays,
      store: state.sharedStore,
      now,
      logger,
      metrics,
      waitUntil,
    }),
  };

  const app = new Hono();
  app.use('*', accessLog(logger, metrics));
  // A path that does not percent-decode is a 400 on every route, before any route reads it.
  app.use('*', wellFormedPaths());
  // Every body is small (a code, a token, an answer id): anything larger is refused before it is read.
  app.use('*', limitRequestBodies(maxBodyBytes));
  // Only the public reads may be kept by a cache in front; everything else is `private, no-store`.
  app.use('*', privateUnlessCacheable());
  const groups = proxyRouteGroups;
  // The public poll reads build their whole answer (`public-routes.ts`), request id and `nosniff` included.
  const pollReads = `${groups.polls}/`;
  app.use(
    '*',
    everyAnswerHeaders(
      (c) => c.req.method === 'GET' && (c.req.path.startsWith(pollReads) || c.req.path === groups.polls),
    ),
  );
  app.route(groups.polls, publicRoutes(runtime, deps.renderFrameCard));
  app.route(originCheckRoute, originRoutes(runtime));
  app.route(groups.fan, fanRoutes(runtime));
  app.route(groups.signIn, signInRoutes(runtime));
  app.route(groups.extension, extensionRoutes(runtime));
  if (deps.widgetFiles !== undefined)
    app.route(groups.widget, widgetRoutes(runtime, deps.widgetFiles, deps.renderFrameCard));
  if (deps.configuratorFiles !== undefined) {
    const configurator = configuratorRoutes(runtime, deps.configuratorFiles, deps.widgetFiles);
    app.route(groups.configurator, configurator);
  }
  app.route(analyticsRouteGroup, analyticsRoutes(runtime));
  app.route(shareRouteGroups.share, shareRoutes(runtime, deps.renderShareImage));
  app.route(shareRouteGroups.oembed, oembedRoutes(runtime, deps.renderShareImage));
  app.route('/', opsRoutes(runtime, metrics, countedPlatformFetch));
  app.notFound(() => {
    throw new ProxyError('not_found', 'No such route.');
  });
  app.onError(errorExit(logger, now, metrics));
  return { app, runtime };
}
