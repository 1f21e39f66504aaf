import { keyPrefix } from './key-value-store.ts';
import type { RedisConnection } from './redis-connection.ts';
import type { RedisHealth } from './redis-health.ts';
import type { PubSub } from './pub-sub.ts';

/**
 * Publish and subscribe on Redis (`PUBLISH`, `SUBSCRIBE`), so a message reaches every instance. Channels get the
 * proxy's key prefix. A publish runs under `RedisHealth` (its deadline, `state_unavailable` while Redis is away); a
 * subscription needs a connection of its own in Redis's subscriber mode, opened from the instance's client on the
 * first `subscribe` (node-redis's `duplicate`, the same settings) and re-subscribed by node-redis after a reconnect.
 */
export function redisPubSub(redis: RedisConnection, health: RedisHealth): PubSub {
  let subscriber: Promise<RedisConnection> | undefined;
  const connected = () => {
    subscriber ??= (async () => {
      const client = redis.duplicate();
      client.on('error', () => undefined); // The main client logs Redis's faults; this one reconnects by itself.
      await client.connect();
      return client;
    })();
    return subscriber;
  };
  return {
    async publish(channel, message) {
      await health.run((client) => client.publish(keyPrefix + channel, message));
    },
    async subscribe(channel, listener) {
      const client = await connected();
      const subscription = (message: string) => {
        listener(message);
      };
      await client.subscribe(keyPrefix + channel, subscription);
      return async () => {
        if (client.isOpen) await client.unsubscribe(keyPrefix + channel, subscription).catch(() => undefined);
      };
    },
    async close() {
      const opened = subscriber;
      subscriber = undefined;
      const client = await opened?.catch(() => undefined);
      if (client === undefined) return;
      if (client.isOpen)
        await client.close().catch(() => {
          client.destroy();
        });
      else client.destroy();
    },
  };
}
