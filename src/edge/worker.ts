// The partner proxy on the Workers runtime (Cloudflare Workers, or `workerd serve` locally): the same app as on Node
// (`createProxyApp`, `loadProxyConfig` over the same config table), its settings from the Worker's bindings, its
// state on Durable Objects, its background work handed to `waitUntil`. No Node API reaches this bundle.
import type { Hono } from 'hono';
import { createProxyApp } from '../proxy/app.ts';
import { renderFrameCardWithLitSsr } from '../proxy/frame-card-lit-ssr.ts';
import { loadProxyConfig, ProxyConfigError } from '../proxy/config.ts';
import type { ShardNamespace } from '../proxy/state/durable-object-protocol.ts';
import { durableObjectProxyState } from '../proxy/state/durable-object-proxy-state.ts';
import type { FileReader } from '../proxy/file-reader.ts';
import { backgroundWork } from './background-work.ts';
import type { ExecutionContext } from 'hono';

export { StateShard } from './state-shard.ts';

/**
 * The Worker's bindings: the `FAN_POLLS_*` variables (text) and the state's Durable Object namespace. (A Worker module
 * exports its handlers and Durable Object classes only: no other value.)
 */
export interface EdgeEnv {
  readonly FAN_POLLS_STATE: ShardNamespace;
  /**
   * The built widget (`dist/widget/`), when bound: Workers static assets (wrangler's `assets.binding`, with
   * `run_worker_first`) or, in local runs, a workerd disk service. Served by the proxy's own widget routes, so the
   * versioned paths, cache headers and the iframe page's proxy URL and CSP are the Node proxy's.
   */
  readonly FAN_POLLS_WIDGET_FILES?: FileFetcher;
  readonly [name: string]: unknown;
}

const background = backgroundWork();
let built: Hono | undefined;

/** A binding that answers file requests by path (Workers static assets, a workerd disk service). */
interface FileFetcher {
  fetch(request: Request): Promise<Response>;
}

/** The widget routes' reader over a file binding: a file's bytes, or undefined when the binding has none. */
function filesOf(binding: FileFetcher): FileReader {
  return async (relativePath) => {
    const response = await binding.fetch(new Request(`https://widget.files/${relativePath}`));
    if (!response.ok) {
      await response.body?.cancel();
      return undefined;
    }
    return new Uint8Array(await response.arrayBuffer());
  };
}

/** The app, built on an isolate's first request: bindings are known only then. */
function appFor(env: EdgeEnv): Hono {
  if (built !== undefined) return built;
  const variables = Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
  const config = loadProxyConfig(variables);
  built = createProxyApp(config, {
    state: durableObjectProxyState(env.FAN_POLLS_STATE),
    waitUntil: background.waitUntil,
    // Cloudflare's edge sets it; behind another proxy, FAN_POLLS_CLIENT_ADDRESS_HEADER says which header to trust.
    clientAddress: (c) => c.req.header('CF-Connecting-IP') ?? 'unknown',
    ...(env.FAN_POLLS_WIDGET_FILES === undefined ? {} : { widgetFiles: filesOf(env.FAN_POLLS_WIDGET_FILES) }),
    renderFrameCard: renderFrameCardWithLitSsr,
  }).app;
  return built;
}

export default {
  async fetch(request: Request, env: EdgeEnv, ctx: ExecutionContext): Promise<Response> {
    let app: Hono;
    try {
      app = appFor(env);
    } catch (error) {
      if (!(error instanceof ProxyConfigError)) throw error;
      // Named variables and rules only (never a value): the operator's log says which to fix.
      console.error(error.message);
      return Response.json(
        { error: { code: 'invalid_config', message: 'The proxy is not configured.' } },
        { status: 503, headers: { 'Cache-Control': 'no-store' } },
      );
    }
    const response = await app.fetch(request, env, ctx);
    background.handOver(ctx);
    return response;
  },
};
