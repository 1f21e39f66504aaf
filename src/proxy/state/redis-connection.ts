import { createClient } from '@redis/client';
import type { ProxyLogger } from '../logger.ts';

/** The client as created here (RESP3, no modules). */
export type RedisConnection = ReturnType<typeof newClient>;

function newClient(url: string) {
  return createClient({
    url,
    disableOfflineQueue: true,
    commandOptions: { timeout: commandTimeoutMs },
    socket: {
      connectTimeout: 2000,
      reconnectStrategy: (retries: number) => Math.min(100 * 2 ** Math.min(retries, 5), 2000),
    },
  });
}

/** How long a command may take before the proxy treats Redis as unavailable. */
const commandTimeoutMs = 1000;

/**
 * One Redis client for the instance (node-redis). Commands fail at once while it is disconnected (no offline queue:
 * a fan gets a 503 now rather than a hung request) and it reconnects by itself, forever, with a capped backoff.
 * Start-up waits a little for the first connection but does not fail without one: `/readyz` tells.
 */
export async function connectRedis(url: string, logger: ProxyLogger): Promise<RedisConnection> {
  const client = newClient(url);
  let lastLoggedAt = 0;
  client.on('error', (error: unknown) => {
    // A dead Redis reports every reconnect attempt: one line every 10 s is enough.
    const now = Date.now();
    if (now - lastLoggedAt < 10_000) return;
    lastLoggedAt = now;
    logger.log('warn', 'redis_unavailable', { cause: error instanceof Error ? error.message : 'unknown' });
  });
  client.on('ready', () => {
    logger.log('info', 'redis_ready');
  });
  const connecting = client.connect().catch(() => undefined);
  await Promise.race([connecting, new Promise((resolve) => setTimeout(resolve, 3000).unref())]);
  return client;
}

/** Closes the connection, waiting for commands in flight (graceful shutdown). */
export async function closeRedis(client: RedisConnection): Promise<void> {
  if (client.isOpen)
    await client.close().catch(() => {
      client.destroy();
    });
  else client.destroy();
}
