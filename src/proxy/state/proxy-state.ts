import type { OAuthClient, TokenSet } from '../../platform/oauth.ts';
import type { TokenKeeper } from '../../platform/token-keeper.ts';
import type { ProxyConfig } from '../config.ts';
import type { ProxyLogger } from '../logger.ts';
import type { SharedHold } from '../platform-guard.ts';
import { withLocalFallback } from './local-fallback-limiter.ts';
import { MemoryKeyValueStore } from './memory-key-value-store.ts';
import { MemoryRateLimiter } from './memory-rate-limiter.ts';
import type { RateLimiter } from './rate-limiter.ts';
import type { RedisConnection } from './redis-connection.ts';
import { redisHealth } from './redis-health.ts';
import { RedisKeyValueStore } from './redis-key-value-store.ts';
import { persistenceCheck, persistenceWarnings } from './redis-persistence.ts';
import { RedisRateLimiter } from './redis-rate-limiter.ts';
import { SessionManager, sessionMemoryCaps } from './session-manager.ts';
import type { SessionStoreOptions } from './session-store.ts';
import { sharedApplicationTokenKeeper } from './shared-application-token.ts';
import { sharedHold } from './shared-hold.ts';
import { createTokenCipher, keyFromSecret, type TokenCipher } from './token-cipher.ts';

/** The state an instance keeps between requests: in its memory, or on Redis shared with every instance. */
export interface ProxyState {
  readonly kind: 'memory' | 'redis';
  readonly sessions: SessionManager;
  /** Sign-in starts, callbacks and the extension's code exchange, per client address. */
  readonly signInLimiter: RateLimiter;
  /** The extension's refresh and revoke, per client address: higher than the sign-in limit. */
  readonly tokenMediationLimiter: RateLimiter;
  /** Public cache misses per client address. */
  readonly publicMissLimiter: RateLimiter;
  /** Platform reads for public cache misses, all clients (one key): the budget that keeps quota for fans. */
  readonly publicReadBudget: RateLimiter;
  /** The application token's keeper when it is shared; undefined: the instance's own. */
  readonly applicationTokens: ((oauth: OAuthClient) => TokenKeeper) | undefined;
  /** Whether the shared state answers now (always in memory), within Redis's deadline, and what an operator should fix. */
  readiness(): Promise<StateReadiness>;
  /** Stops background work (Redis's health probe). */
  close(): void;
  /** The platform guard's hold, shared by every instance (Redis); undefined in memory. */
  readonly platformHold: SharedHold | undefined;
  /** Signed-in sessions held (metrics): this instance's in memory, every instance's on Redis. */
  activeSessions(): Promise<number | undefined>;
}

export interface StateReadiness {
  readonly ready: boolean;
  /** Not a refusal: `redis_without_persistence` or `redis_without_append_only_file` (sessions lost on its restart). */
  readonly warnings: readonly string[];
}

export interface ProxyStateDeps {
  readonly config: ProxyConfig;
  readonly logger: ProxyLogger;
  readonly now: () => number;
  readonly sessionOptions: SessionStoreOptions;
  /** Turns a fan's refresh token into a new pair (the OAuth client, known once the platform access is built). */
  readonly refresh: (refreshToken: string) => Promise<TokenSet>;
  /** Connected by the runtime adapter when `config.redisUrl` is set. */
  readonly redis: RedisConnection | undefined;
}

const minuteMs = 60_000;

export function createProxyState(deps: ProxyStateDeps): ProxyState {
  const { config, redis, now } = deps;
  const cipher = cipherOf(config);
  if (redis === undefined) {
    const store = new MemoryKeyValueStore(sessionMemoryCaps(deps.sessionOptions));
    const sessions = new SessionManager(store, cipher, deps.refresh, deps.sessionOptions);
    return {
      kind: 'memory',
      sessions,
      signInLimiter: new MemoryRateLimiter(config.signInPerMinute, minuteMs, now),
      tokenMediationLimiter: new MemoryRateLimiter(config.tokenMediationPerMinute, minuteMs, now),
      publicMissLimiter: new MemoryRateLimiter(config.publicMissesPerClientPerMinute, minuteMs, now),
      publicReadBudget: new MemoryRateLimiter(config.publicReadsPerMinute, minuteMs, now),
      applicationTokens: undefined,
      platformHold: undefined,
      readiness: () => Promise.resolve({ ready: true, warnings: [] }),
      close: () => undefined,
      activeSessions: () => sessions.count(),
    };
  }
  const health = redisHealth(redis, { logger: deps.logger });
  const persistence = persistenceCheck(health, deps.logger);
  void persistence();
  const store = new RedisKeyValueStore(health, { counted: ['session'], now });
  const sessions = new SessionManager(store, cipher, deps.refresh, deps.sessionOptions);
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
    },
  };
}

/** The key for tokens at rest: the configured one, or (sandbox, memory) one derived from the session secret. */
function cipherOf(config: ProxyConfig): TokenCipher {
  return createTokenCipher(
    config.tokenEncryptionKey === undefined
      ? keyFromSecret(config.sessionSecret)
      : Uint8Array.from(atob(config.tokenEncryptionKey.replace(/-/g, '+').replace(/_/g, '/')), (char) =>
          char.charCodeAt(0),
        ),
  );
}
