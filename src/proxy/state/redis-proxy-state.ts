import { withLocalFallback } from './local-fallback-limiter.ts';
import { MemoryRateLimiter } from './memory-rate-limiter.ts';
import { cipherOf, minuteMs, type ProxyStateFactory } from './proxy-state.ts';
import type { RedisConnection } from './redis-connection.ts';
import { redisHealth } from './redis-health.ts';
import { RedisKeyValueStore } from './redis-key-value-store.ts';
import { redisPubSub } from './redis-pub-sub.ts';
import { persistenceCheck, persistenceWarnings } from './redis-persistence.ts';
import { RedisRateLimiter } from './redis-rate-limiter.ts';
import { SessionManager } from './session-manager.ts';
import { sharedApplicationTokenKeeper } from './shared-application-token.ts';
import { sharedHold } from './shared-hold.ts';

/**
 * The state on Redis, shared by every instance (Node only: `serve.ts` connects `redis` when `FAN_POLLS_REDIS_URL` is
 * set and injects this, so the app itself never imports the Redis client).
 */
export function redisProxyState(redis: RedisConnection): ProxyStateFactory {
  return (deps) => {
    const { config, now } = deps;
    const cipher = cipherOf(config);
    const health = redisHealth(redis, { logger: deps.logger });
    const persistence = persistenceCheck(health, deps.logger);
    void persistence();
    const store = new RedisKeyValueStore(health, { counted: ['session'], now });
    const sessions = new SessionManager(store, cipher, deps.refresh, deps.sessionOptions);
    const pubSub = redisPubSub(redis, health);
    return {
      kind: 'redis',
      sessions,
      signInLimiter: new RedisRateLimiter(health, 'sign-in', config.signInPerMinute, minuteMs),
      tokenMediationLimiter: new RedisRateLimiter(
        health,
        'token-mediation',
        config.tokenMediationPerMinute,
        minuteMs,
      ),
      publicMissLimiter: withLocalFallback(
        new RedisRateLimiter(health, 'public-misses', config.publicMissesPerClientPerMinute, minuteMs),
        new MemoryRateLimiter(config.publicMissesPerClientPerMinute, minuteMs, now),
      ),
      publicReadBudget: withLocalFallback(
        new RedisRateLimiter(health, 'public-reads', config.publicReadsPerMinute, minuteMs),
        new MemoryRateLimiter(config.publicReadsPerMinute, minuteMs, now),
      ),
      applicationTokens: (oauth) => sharedApplicationTokenKeeper(oauth, store, cipher, deps.logger, now),
      platformHold: sharedHold(store),
      activeSessions: () => sessions.count().catch(() => undefined),
      sharedStore: store,
      fanOut: { store, pubSub },
      readiness: async () => {
        const [ready, kept] = await Promise.all([
          health
            .run((client) => client.ping())
            .then(
              () => true,
              () => false,
            ),
          persistence(),
        ]);
        return { ready, warnings: persistenceWarnings(kept) };
      },
      close: () => {
        health.close();
        void pubSub.close();
      },
    };
  };
}
