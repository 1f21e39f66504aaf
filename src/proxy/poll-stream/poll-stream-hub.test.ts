// The hub's hand-out of a new copy to many streams of one instance: in slices with a turn of the event loop between
// them, every stream reached, and a later copy never overtaken by the rest of an earlier one's hand-out.
import { describe, expect, it } from 'vitest';
import type { CachedAnswer } from '../response-cache.ts';
import type { ProxyRuntime } from '../runtime.ts';
import { MemoryKeyValueStore } from '../state/memory-key-value-store.ts';
import { MemoryPubSub } from '../state/pub-sub.ts';
import { PollStreamHub } from './poll-stream-hub.ts';

const pollId = '0b7c3f9e-2d5a-4c1e-9f6b-8a4d2e7c1b30';
const streamCount = 1200;

/** A hub on memory state whose refresher reads `first`, with the runtime's parts it uses. */
function hubReading(first: CachedAnswer) {
  const pubSub = new MemoryPubSub();
  const runtime = {
    config: { pollCacheSeconds: 60, streamsPerInstance: streamCount, streamsPerClient: streamCount },
    now: Date.now,
    logger: { log: () => undefined },
    pollCache: { put: () => undefined },
  } as unknown as ProxyRuntime;
  const hub = new PollStreamHub(
    runtime,
    { store: new MemoryKeyValueStore(), pubSub },
    { renew: () => Promise.resolve(first), cacheKeyOf: (id) => `poll:${id}`, instanceId: 'here' },
  );
  return { hub, pubSub };
}

/** A copy as another instance publishes it. */
function published(copy: CachedAnswer): string {
  return JSON.stringify({ id: pollId, ...copy });
}

const copy = (etag: string, storedAt: number): CachedAnswer => ({
  body: `{"etag":"${etag}"}`,
  etag,
  storedAt,
});

describe('PollStreamHub hands a copy out', () => {
  it('to every stream, and a later copy is the last each stream gets', async () => {
    const now = Date.now();
    const { hub, pubSub } = hubReading(copy('a', now));
    const heard: string[][] = Array.from({ length: streamCount }, () => []);
    let reached = 0;
    const everyStreamHas = (etag: string) =>
      new Promise<void>((resolve) => {
        const check = () => heard.every((etags) => etags.at(-1) === etag);
        if (check()) resolve();
        waiters.push(() => {
          if (check()) resolve();
        });
      });
    const waiters: (() => void)[] = [];
    const ends = heard.map((etags) =>
      hub.watch(pollId, (_id, answer) => {
        etags.push(answer.etag);
        reached += 1;
        for (const waiter of waiters) waiter();
      }),
    );
    await everyStreamHas('a');
    expect(reached).toBe(streamCount);

    // Another instance's copy `b`, then `c` before `b`'s hand-out is done: every stream ends on `c`, none gets `b`
    // after it, and `b` stops after its first slice.
    await pubSub.publish('poll-copies', published(copy('b', now + 1)));
    await pubSub.publish('poll-copies', published(copy('c', now + 2)));
    await everyStreamHas('c');
    for (const etags of heard) expect(etags.slice(etags.indexOf('c'))).toEqual(['c']);
    const gotB = heard.filter((etags) => etags.includes('b')).length;
    expect(gotB).toBeGreaterThan(0);
    expect(gotB).toBeLessThan(streamCount);
    for (const end of ends) end();
  });
});
