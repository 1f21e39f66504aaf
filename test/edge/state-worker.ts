// A test-only Worker: the proxy's state shard (the real Durable Object class) reachable over HTTP, so that the key-value
// store conformance suite runs in Node against it through the real client (`DurableObjectKeyValueStore`).
// `POST /shard/<name>` forwards the body, one `ShardRequest`, to the object of that name.
// `POST /clock?advance=<ms>` moves the objects' clock on, so that a test of expiry waits for no real time.
import type { ShardNamespace } from '../../src/proxy/state/durable-object-protocol.ts';
import { StateShard as ProxyStateShard } from '../../src/edge/state-shard.ts';
import type { DurableObjectState } from '../../src/edge/workers-types.ts';

/** How far the objects' clock is ahead of the real one (the objects run in this Worker's isolate). */
let clockAheadMs = 0;

export class StateShard extends ProxyStateShard {
  constructor(state: DurableObjectState, env: unknown) {
    super(state, env, () => Date.now() + clockAheadMs);
  }
}

export default {
  async fetch(request: Request, env: { FAN_POLLS_STATE: ShardNamespace }): Promise<Response> {
    const { pathname, searchParams } = new URL(request.url);
    if (pathname === '/healthz') return new Response('ok');
    if (pathname === '/clock' && request.method === 'POST') {
      clockAheadMs += Number(searchParams.get('advance') ?? 0);
      return Response.json({ clockAheadMs });
    }
    const name = /^\/shard\/([\w-]+)$/.exec(pathname)?.[1];
    if (name === undefined || request.method !== 'POST') return new Response('Not found', { status: 404 });
    const stub = env.FAN_POLLS_STATE.get(env.FAN_POLLS_STATE.idFromName(name) as never);
    return stub.fetch(new Request('https://state.internal/', { method: 'POST', body: await request.text() }));
  },
};
