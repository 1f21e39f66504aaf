import type { Hono } from 'hono';
import { MemoryKeyValueStore } from '../proxy/state/memory-key-value-store.ts';
import { MemoryPubSub } from '../proxy/state/pub-sub.ts';
import { edgeApp, type EdgeEnv } from './edge-app.ts';
import type { DurableObjectState } from './workers-types.ts';

/** The one object of the `FAN_POLLS_STREAMS` namespace every isolate hands its streams to. */
export const pollStreamObjectName = 'poll-streams';

/**
 * Every live poll stream of the Worker, in one Durable Object: the isolates forward `GET /api/polls/stream` here and
 * pass its answer on, and this object serves it with the proxy's own stream route (`src/proxy/poll-stream/`). An
 * object is one single-threaded instance for the whole Worker, as one Node instance in memory is: its hub refreshes
 * each watched poll once per freshness window (a platform read through the same poll cache, application token and
 * guard, its shared parts in the state's Durable Objects) and hands each new copy to every stream, on timers that
 * live as long as a stream is open. Its fan-out needs no one else, so it is kept in the object's memory.
 */
export class PollStreamObject {
  readonly #env: EdgeEnv;
  #app: Hono | undefined;

  constructor(_state: DurableObjectState, env: EdgeEnv) {
    this.#env = env;
  }

  fetch(request: Request): Promise<Response> {
    this.#app ??= edgeApp(this.#env, {
      // An object's work goes on after the answer that started it: nothing to hand over.
      waitUntil: () => undefined,
      fanOut: { store: new MemoryKeyValueStore(), pubSub: new MemoryPubSub() },
    });
    return Promise.resolve(this.#app.fetch(request));
  }
}
