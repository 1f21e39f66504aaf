// The publish-and-subscribe conformance suite against Debian's redis-server, started here on a free port: two
// instances, each with its own client, as two proxies on one Redis.
import { createClient } from '@redis/client';
import { afterAll, beforeAll } from 'vitest';
import { startRedis, type TestRedis } from '../../../test/support/redis-server.ts';
import { describePubSub } from './pub-sub.conformance.ts';
import type { RedisConnection } from './redis-connection.ts';
import { redisHealth } from './redis-health.ts';
import { redisPubSub } from './redis-pub-sub.ts';

let redis: TestRedis;

beforeAll(async () => {
  redis = await startRedis();
}, 20_000);

afterAll(async () => {
  await redis.close();
});

describePubSub('redis', async () => {
  const clients: RedisConnection[] = [createClient({ url: redis.url }), createClient({ url: redis.url })];
  await Promise.all(clients.map((client) => client.connect()));
  const [one, two] = clients.map((client) =>
    redisPubSub(client, redisHealth(client, { logger: { log: () => undefined } })),
  ) as [ReturnType<typeof redisPubSub>, ReturnType<typeof redisPubSub>];
  return {
    instances: [one, two],
    close: async () => {
      await Promise.all([one.close(), two.close()]);
      await Promise.all(clients.map((client) => client.close()));
    },
  };
});
