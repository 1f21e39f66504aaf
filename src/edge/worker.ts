// The partner proxy on the Workers runtime (Cloudflare Workers, or `workerd serve` locally): the same app as on Node
// (`createProxyApp`, `loadProxyConfig` over the same config table), its settings from the Worker's bindings, its
// state on Durable Objects, its background work handed to `waitUntil`. No Node API reaches this bundle.
import type { Hono } from 'hono';
import { pollStreamPath } from '../contracts/poll-stream-contract.ts';
import { ProxyConfigError } from '../proxy/config.ts';
import { backgroundWork } from './background-work.ts';
import { edgeApp, type EdgeEnv } from './edge-app.ts';
import { pollStreamObjectName } from './poll-stream-object.ts';
import type { ExecutionContext } from 'hono';

export { StateShard } from './state-shard.ts';
export { PollStreamObject } from './poll-stream-object.ts';

const background = backgroundWork();
let built: Hono | undefined;

/** The app, built on an isolate's first request: bindings are known only then. */
function appFor(env: EdgeEnv): Hono {
  built ??= edgeApp(env, { waitUntil: background.waitUntil });
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
    // Every stream is held by the one poll streams' object, which answers it with the same app (its own checks).
    const streams = env.FAN_POLLS_STREAMS;
    if (streams !== undefined && new URL(request.url).pathname === pollStreamPath)
      return streams.get(streams.idFromName(pollStreamObjectName) as never).fetch(request);
    const response = await app.fetch(request, env, ctx);
    background.handOver(ctx);
    return response;
  },
};
