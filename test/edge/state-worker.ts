// A test-only Worker: the proxy's state shard (the real Durable Object class) reachable over HTTP, so that the key-value
// store conformance suite runs in Node against it through the real client (`DurableObjectKeyValueStore`).
// `POST /shard/<name>` forwards the body, one `ShardRequest`, to the object of that name.
// `POST /clock?set=<ms>` stops the objects' clock at that time and `POST /clock?advance=<ms>` moves it on: time
// passes there only when a test says so, however slowly a loaded runner gets from one step to the next.
import type { ShardNamespace } from '../../src/proxy/state/durable-object-protocol.ts';
import { StateShard as ProxyStateShard } from '../../src/edge/state-shard.ts';
import type { DurableObjectState } from '../../src/edge/workers-types.ts';

/** The objects' clock (they run in this Worker's isolate): the real one until a test sets it. */
let clockAt: number | undefined;

export class StateShard extends ProxyStateShard {
  constructor(state: DurableObjectState, env: unknown) {
    super(state, env, () => clockAt ?? Date.now());
  }
}

export default {
  async fetch(request: Request, env: { FAN_POLLS_STATE: ShardNamespace }): Promise<Response> {
    const { pathname, searchParams } = new URL(request.url);
    if (pathname === '/healthz') return new Response('ok');
    if (pathname === '/clock' && request.method === 'POST') {
      const set = searchParams.get('set');
      clockAt =
        (set === null ? (clockAt ?? Date.now()) : Number(set)) + Number(searchParams.get('advance') ?? 0);
      return Response.json({ clockAt });
    }
    const name = /^\/shard\/([\w-]+)$/.exec(pathname)?.[1];
    if (name === undefined || request.method !== 'POST') return new Response('Not found', { status: 404 });
    const stub = env.FAN_POLLS_STATE.get(env.FAN_POLLS_STATE.idFromName(name) as never);
    return stub.fetch(new Request('https://state.internal/', { method: 'POST', body: await request.text() }));
  },
};
