// What the state client says to a state shard (a Durable Object), one JSON request per operation, and what it
// answers: one definition for both sides (`durable-object-key-value-store.ts`, `src/edge/state-shard.ts`).

import type { CounterIncrement } from './key-value-store.ts';

export type ShardRequest =
  | { readonly op: 'get'; readonly key: string }
  | {
      readonly op: 'set';
      readonly key: string;
      readonly value: string;
      readonly ttlMs: number;
      readonly only?: 'absent' | 'present';
    }
  | { readonly op: 'take'; readonly key: string }
  | { readonly op: 'delete'; readonly key: string; readonly ifValue?: string }
  | { readonly op: 'count'; readonly namespace: string }
  /** Adds `by` to the counter at `key`; a new one expires `ttlMs` from now (`ShardAnswer.count`: the new value). */
  | { readonly op: 'increment'; readonly key: string; readonly by: number; readonly ttlMs: number }
  /** `increment` for each counter, in order, in one step (`ShardAnswer.counts`: the new values). */
  | { readonly op: 'incrementMany'; readonly counters: readonly CounterIncrement[] }
  /** One more attempt in the key's fixed window (`windowMs` long from its first attempt). */
  | { readonly op: 'hit'; readonly key: string; readonly windowMs: number }
  /** Every value as the shard holds it (what a dump of its storage shows): tests check no token is readable. */
  | { readonly op: 'dump' };

export interface ShardAnswer {
  readonly value?: string;
  readonly written?: boolean;
  readonly count?: number;
  /** `incrementMany`: each counter's new value, in order. */
  readonly counts?: readonly number[];
  /** `hit`: how long the window has left. */
  readonly resetInMs?: number;
  readonly values?: readonly string[];
}

/** The subset of a Durable Object namespace binding the client uses (Workers' `DurableObjectNamespace`). */
export interface ShardNamespace {
  idFromName(name: string): unknown;
  get(id: never): { fetch(request: Request): Promise<Response> };
}
