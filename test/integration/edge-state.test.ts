// The key-value store conformance suite (the same cases as memory and Redis) against the Durable Objects backend on
// workerd: the real `StateShard` objects with SQLite storage on local disk, reached through the real client
// (`DurableObjectKeyValueStore`) over a test-only Worker that forwards each request to its object.
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeKeyValueStore, type StoreClock } from '../../src/proxy/state/key-value-store.conformance.ts';
import {
  DurableObjectKeyValueStore,
  DurableObjectRateLimiter,
} from '../../src/proxy/state/durable-object-key-value-store.ts';
import type { ShardAnswer, ShardNamespace } from '../../src/proxy/state/durable-object-protocol.ts';
import { buildEdgeBundle, startWorkerd, type RunningWorkerd } from '../support/workerd.ts';

const shards = 4;
let workerd: RunningWorkerd;
let generation = 0;
/** The objects' clock, stopped (test/edge/state-worker.ts holds it): time passes there at once, when a test says. */
let objectsNow = Date.now();

async function setObjectsClock(query: string): Promise<void> {
  const answer = await fetch(`${workerd.url}/clock?${query}`, { method: 'POST' });
  objectsNow = ((await answer.json()) as { clockAt: number }).clockAt;
}

const shardClock: StoreClock = {
  now: () => objectsNow,
  pass: (ms) => setObjectsClock(`advance=${String(ms)}`),
};

beforeAll(async () => {
  const bundle = await buildEdgeBundle(fileURLToPath(new URL('../edge/state-worker.ts', import.meta.url)));
  workerd = await startWorkerd(bundle);
  await setObjectsClock(`set=${String(Date.now())}`);
}, 60_000);

afterAll(async () => {
  await workerd.close();
});

/** Objects named for this test alone (`<generation>-shard-<n>`): each test starts on empty storage. */
function namespaceOf(prefix: string): ShardNamespace {
  return {
    idFromName: (name) => `${prefix}-${name}`,
    get: (id) => ({
      fetch: async (request) =>
        fetch(`${workerd.url}/shard/${id as string}`, {
          method: 'POST',
          body: await request.text(),
          signal: request.signal,
        }),
    }),
  };
}

describeKeyValueStore('durable objects on workerd', () => {
  generation += 1;
  const namespace = namespaceOf(`test${generation}`);
  const dump = async (shard: number) => {
    const stub = namespace.get(namespace.idFromName(`shard-${shard}`) as never);
    const answer = await stub.fetch(
      new Request('https://state.internal/', { method: 'POST', body: JSON.stringify({ op: 'dump' }) }),
    );
    return ((await answer.json()) as ShardAnswer).values ?? [];
  };
  return Promise.resolve({
    store: new DurableObjectKeyValueStore(namespace, { shards }),
    rawValues: async () =>
      (await Promise.all(Array.from({ length: shards }, (_, shard) => dump(shard)))).flat(),
    close: () => Promise.resolve(),
    clock: shardClock,
  });
});

describe('durable objects on workerd: rate limits', () => {
  it('counts every isolate’s attempts in one window: of concurrent attempts exactly the limit pass', async () => {
    const store = new DurableObjectKeyValueStore(namespaceOf('limits'), { shards });
    const limiter = new DurableObjectRateLimiter(store, 'sign-in', 5, 60_000);
    const waits = await Promise.all(Array.from({ length: 12 }, () => limiter.take('203.0.113.7')));
    expect(waits.filter((wait) => wait === undefined)).toHaveLength(5);
    for (const wait of waits.filter((each) => each !== undefined)) expect(wait).toBeGreaterThan(55);
    expect(await limiter.take('198.51.100.1')).toBeUndefined();
  });

  it('starts a new window when the last one ends', async () => {
    const store = new DurableObjectKeyValueStore(namespaceOf('windows'), { shards });
    const limiter = new DurableObjectRateLimiter(store, 'sign-in', 1, 300);
    expect(await limiter.take('fan')).toBeUndefined();
    expect(await limiter.take('fan')).toBe(1);
    // The objects' clock moves on past the window, not the test's.
    await shardClock.pass(350);
    expect(await limiter.take('fan')).toBeUndefined();
  });
});
