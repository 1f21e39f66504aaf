// The proxy's app as the Workers runtime builds it, in an isolate and in the poll streams' Durable Object alike: its
// settings from the Worker's text bindings, its state on Durable Objects, its background work handed to `waitUntil`.
import type { Hono } from 'hono';
import { createProxyApp } from '../proxy/app.ts';
import { renderFrameCardWithLitSsr } from '../proxy/frame-card-lit-ssr.ts';
import { loadProxyConfig } from '../proxy/config.ts';
import type { FileReader } from '../proxy/file-reader.ts';
import type { ShardNamespace } from '../proxy/state/durable-object-protocol.ts';
import { durableObjectProxyState } from '../proxy/state/durable-object-proxy-state.ts';
import { shareImageRenderer } from '../proxy/share/share-image-drawing.ts';
import type { FanOutState } from '../proxy/state/proxy-state.ts';
import type { DurableObjectNamespace } from './workers-types.ts';
import { edgeShareImageAssets } from './share-image-assets.ts';

/**
 * The Worker's bindings: the `FAN_POLLS_*` variables (text), the state's Durable Object namespace and the poll
 * streams' one. (A Worker module exports its handlers and Durable Object classes only: no other value.)
 */
export interface EdgeEnv {
  readonly FAN_POLLS_STATE: ShardNamespace;
  /** The Durable Object that holds every poll stream (`PollStreamObject`); without it the stream answers 503. */
  readonly FAN_POLLS_STREAMS?: DurableObjectNamespace;
  /**
   * The built widget (`dist/widget/`), when bound: Workers static assets (wrangler's `assets.binding`, with
   * `run_worker_first`) or, in local runs, a workerd disk service. Served by the proxy's own widget routes, so the
   * versioned paths, cache headers and the iframe page's proxy URL and CSP are the Node proxy's.
   */
  readonly FAN_POLLS_WIDGET_FILES?: FileFetcher;
  readonly [name: string]: unknown;
}

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

/** The app over `env`'s bindings; throws `ProxyConfigError` when a setting is bad. */
export function edgeApp(
  env: EdgeEnv,
  options: { readonly waitUntil: (work: Promise<unknown>) => void; readonly fanOut?: FanOutState },
): Hono {
  const variables = Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
  const config = loadProxyConfig(variables);
  const fanOut = options.fanOut === undefined ? {} : { fanOut: options.fanOut };
  return createProxyApp(config, {
    state: durableObjectProxyState(env.FAN_POLLS_STATE, fanOut),
    waitUntil: options.waitUntil,
    // Cloudflare's edge sets it; behind another proxy, FAN_POLLS_CLIENT_ADDRESS_HEADER says which header to trust.
    clientAddress: (c) => c.req.header('CF-Connecting-IP') ?? 'unknown',
    ...(env.FAN_POLLS_WIDGET_FILES === undefined ? {} : { widgetFiles: filesOf(env.FAN_POLLS_WIDGET_FILES) }),
    renderFrameCard: renderFrameCardWithLitSsr,
    // The same drawing as Node's; its WebAssembly and fonts are modules uploaded with the Worker.
    renderShareImage: shareImageRenderer(edgeShareImageAssets),
  }).app;
}
