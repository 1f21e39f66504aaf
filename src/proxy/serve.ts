import { getConnInfo } from '@hono/node-server/conninfo';
import { proxyRoutes } from '../contracts/proxy-contract.ts';
import { loopbackHost, localPorts } from '../local-defaults.ts';
import {
  closeServer,
  listenOnLoopback,
  type FetchHandler,
  type FirstListener,
} from '../node/loopback-server.ts';
import { defaultConfiguratorDir } from '../node/configurator-files.ts';
import { undiciFetch } from '../node/undici-fetch.ts';
import { defaultWidgetDir, widgetFilesIn } from '../node/widget-files.ts';
import { createProxyApp, type ProxyApp, type ProxyDeps } from './app.ts';
import { cachedPollReadListener } from './cached-read-listener.ts';
import { renderFrameCardWithLitSsr } from './frame-card-lit-ssr.ts';
import { shareImageRenderer } from './share/share-image-drawing.ts';
import { readShareImageAssets } from '../node/share-image-assets.ts';
import { loadProxyConfig, type ProxyConfig, type ProxyEnvironment } from './config.ts';
import { createJsonLogger } from './logger.ts';
import {
  bufferedLogSink,
  type BufferedLogSink,
  type LogDestination,
} from './operations/buffered-log-sink.ts';
import { prometheusMetrics } from './operations/prometheus-metrics.ts';
import { pollStreamHubOf } from './poll-stream/poll-stream-route.ts';
import type { ProxyRuntime } from './runtime.ts';
import { closeRedis, connectRedis } from './state/redis-connection.ts';
import { redisProxyState } from './state/redis-proxy-state.ts';

export interface ServeProxyOptions {
  /**
   * Read like the process environment (`FAN_POLLS_*`): empty means production's rules (and fails for want of the
   * required settings); `FAN_POLLS_PRESET: 'sandbox'` chooses the local sandbox's defaults.
   */
  readonly env?: ProxyEnvironment;
  /** Applied over what `env` gives (tests: platform URLs, allowed origins). */
  readonly config?: Partial<ProxyConfig>;
  /** 0 picks a free port. Default: `PORT` from env, else 4020. */
  readonly port?: number;
  readonly hostname?: string;
  readonly deps?: ProxyDeps;
  /**
   * Where the default JSON log goes, buffered (`bufferedLogSink`: info lines written together every 100 ms, flushed
   * on close); default: stdout, warnings and errors on stderr. Not used when `deps.logger` or `deps.logSink` is given.
   */
  readonly logDestination?: LogDestination;
}

/** The process's own streams: the access log on stdout, warnings and errors on stderr (as `console` would). */
const standardStreams: LogDestination = {
  write: (chunk) => {
    process.stdout.write(chunk);
  },
  writeUrgent: (_level, line) => {
    process.stderr.write(`${line}\n`);
  },
};

export interface RunningProxy {
  readonly url: string;
  readonly config: ProxyConfig;
  readonly proxy: ProxyApp;
  /**
   * Stops: no new connections, then the Redis connection closes. With `graceMs` (SIGTERM), requests in flight get
   * that long to finish; without, open connections are cut at once.
   */
  close(options?: { graceMs?: number }): Promise<void>;
  /** Stops at once, as a crash would: every connection is cut mid-request (tests). */
  abort(): Promise<void>;
}

/**
 * Serves the proxy on Node. It listens first, so that with port 0 the public URL (and the sign-in callback
 * `${url}/auth/callback`) is the real one unless `FAN_POLLS_PUBLIC_URL` or `config.publicUrl` says otherwise.
 * Throws `ProxyConfigError` (after closing the socket) when the settings are bad.
 */
export async function serveProxy(options: ServeProxyOptions = {}): Promise<RunningProxy> {
  const env = options.env ?? {};
  const hostname = options.hostname ?? loopbackHost;
  // Bound once the port (and so the public URL) is known; a request before that gets a 503.
  const handler: { current?: FetchHandler; first?: FirstListener } = {};
  const { server, port, url } = await listenOnLoopback(
    (request, nodeEnv) =>
      handler.current ? handler.current(request, nodeEnv) : new Response('Starting', { status: 503 }),
    options.port ?? portFrom(env.PORT),
    hostname,
    (request, response) => handler.first?.(request, response) ?? false,
  );
  let config: ProxyConfig;
  try {
    const base = loadProxyConfig({
      ...env,
      PORT: String(port),
      FAN_POLLS_PUBLIC_URL: env.FAN_POLLS_PUBLIC_URL ?? url,
    });
    const merged = { ...base, ...options.config };
    config = {
      ...merged,
      callbackUrl: options.config?.callbackUrl ?? `${merged.publicUrl}${proxyRoutes.signInCallback}`,
    };
  } catch (error) {
    await closeServer(server);
    throw error;
  }
  const buffered: BufferedLogSink | undefined =
    options.deps?.logger === undefined && options.deps?.logSink === undefined
      ? bufferedLogSink(options.logDestination ?? standardStreams)
      : undefined;
  const logger =
    options.deps?.logger ??
    createJsonLogger(
      [config.clientSecret, config.sessionSecret],
      options.deps?.logSink ?? buffered?.sink,
      config.logLevel,
    );
  // Injected state (a test's) wins; otherwise Redis when configured, connected (and closed) here.
  const redis =
    options.deps?.state !== undefined || config.redisUrl === undefined
      ? undefined
      : await connectRedis(config.redisUrl, logger);
  // Read at scrape time from the app built below.
  const built: { runtime?: ProxyRuntime } = {};
  const metrics =
    options.deps?.metrics ??
    prometheusMetrics(
      () => built.runtime?.state.activeSessions() ?? Promise.resolve(undefined),
      () => (built.runtime === undefined ? undefined : pollStreamHubOf(built.runtime)),
    );
  const proxy = createProxyApp(config, {
    fetch: undiciFetch(),
    clientAddress: (c) => getConnInfo(c).remote.address ?? 'unknown',
    widgetFiles: widgetFilesIn(defaultWidgetDir(config.widgetDir)),
    renderFrameCard: renderFrameCardWithLitSsr,
    renderShareImage: shareImageRenderer(readShareImageAssets),
    configuratorFiles: widgetFilesIn(defaultConfiguratorDir()),
    ...options.deps,
    metrics,
    logger,
    ...(redis === undefined ? {} : { state: redisProxyState(redis) }),
  });
  built.runtime = proxy.runtime;
  handler.current = proxy.app.fetch;
  // The hot path (a fresh cached poll read) before Hono; everything else goes on to the app.
  handler.first = cachedPollReadListener(proxy.runtime, metrics);
  const stopped = async (closing: Promise<void>) => {
    try {
      await closing;
      // The counts of the last requests, before the store closes.
      await proxy.runtime.analytics.flush();
      proxy.runtime.state.close();
      if (redis !== undefined) await closeRedis(redis);
    } finally {
      // After the last request's line and Redis's goodbye: every buffered line is out before the process exits.
      buffered?.close();
    }
  };
  return {
    url,
    config,
    proxy,
    close: (closeOptions = {}) => stopped(closeServer(server, closeOptions)),
    abort: () => stopped(closeServer(server)),
  };
}

function portFrom(value: string | undefined): number {
  const port = Number(value);
  return value !== undefined && Number.isInteger(port) && port >= 0 && port <= 65_535
    ? port
    : localPorts.proxy;
}
