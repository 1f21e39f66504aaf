// A test-only Worker: the proxy's state shard (the real Durable Object class) reachable over HTTP, so that the key-value
// store conformance suite runs in Node against it through the real client (`DurableObjectKeyValueStore`).
// `POST /shard/<name>` forwards the body, one `ShardRequest`, to the object of that name.
import type { ShardNamespace } from '../../src/proxy/state/durable-object-protocol.ts';

export { StateShard } from '../../src/edge/state-shard.ts';

export default {
  async fetch(request: Request, env: { FAN_POLLS_STATE: ShardNamespace }): Promise<Response> {
    const { pathname } = new URL(request.url);
    if (pathname === '/healthz') return new Response('ok');
    const name = /^\/shard\/([\w-]+)$/.exec(pathname)?.[1];
    if (name === undefined || request.method !== 'POST') return new Response('Not found', { status: 404 });
    const stub = env.FAN_POLLS_STATE.get(env.FAN_POLLS_STATE.idFromName(name) as never);
    return stub.fetch(new Request('https://state.internal/', { method: 'POST', body: await request.text() }));
  },
};
