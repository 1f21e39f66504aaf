// The conformance suite against Debian's redis-server, started here on a free port.
import { createClient } from '@redis/client';
import { afterAll, beforeAll } from 'vitest';
import { startRedis, type TestRedis } from '../../../test/support/redis-server.ts';
import { describeKeyValueStore } from './key-value-store.conformance.ts';
import { keyPrefix } from './key-value-store.ts';
import type { RedisConnection } from './redis-connection.ts';
import { redisHealth } from './redis-health.ts';
import { RedisKeyValueStore } from './redis-key-value-store.ts';

let redis: TestRedis;
let client: RedisConnection;

beforeAll(async () => {
  redis = await startRedis();
  client = createClient({ url: redis.url });
  await client.connect();
}, 20_000);

afterAll(async () => {
  await client.close();
  await redis.close();
});

describeKeyValueStore('redis', async () => {
  await client.flushAll();
  return {
    store: new RedisKeyValueStore(redisHealth(client, { logger: { log: () => undefined } }), {
      counted: ['session'],
    }),
    rawValues: async () => {
      const values: string[] = [];
      for (const key of await client.keys(`${keyPrefix}*`)) {
        if ((await client.type(key)) === 'string') values.push((await client.get(key)) ?? '');
      }
      return values;
    },
    close: () => Promise.resolve(),
  };
});
