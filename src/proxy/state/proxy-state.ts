import { decodeBase64Url } from 'hono/utils/encode';
import type { OAuthClient, TokenSet } from '../../platform/oauth.ts';
import type { TokenKeeper } from '../../platform/token-keeper.ts';
import type { ProxyConfig } from '../config.ts';
import type { ProxyLogger } from '../logger.ts';
import type { SharedHold } from '../platform-guard.ts';
import type { KeyValueStore } from './key-value-store.ts';
import { MemoryKeyValueStore } from './memory-key-value-store.ts';
import { MemoryPubSub, type PubSub } from './pub-sub.ts';
import { MemoryRateLimiter } from './memory-rate-limiter.ts';
import type { RateLimiter } from './rate-limiter.ts';
import { SessionManager, sessionMemoryCaps } from './session-manager.ts';
import type { SessionStoreOptions } from './session-store.ts';
import { createTokenCipher, keyFromSecret, type TokenCipher } from './token-cipher.ts';

/** The state an instance keeps between requests: in its memory, or on Redis shared with every instance. */
export interface ProxyState {
  readonly kind: 'memory' | 'redis' | 'durable-object';
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
  /** The key-value store under the sessions, for the analytics counts (`analytics/analytics-counter.ts`). */
  readonly sharedStore: KeyValueStore;
  /**
   * What the poll streams' fan-out shares across instances (`poll-stream/poll-stream-hub.ts`): the store for the
   * refresher's lease and the newest copy, and the channel every instance hears new copies on. Undefined where the
   * backend has no publish and subscribe (Durable Objects): the stream route then answers 503 and cards poll.
   */
  readonly fanOut?: FanOutState;
}

/** The shared state of the poll streams' fan-out. */
export interface FanOutState {
  readonly store: KeyValueStore;
  readonly pubSub: PubSub;
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
}

/**
 * Builds the state for one app. The app's default is `memoryProxyState`; a runtime adapter injects another (Node:
 * `redisProxyState` when `FAN_POLLS_REDIS_URL` is set; Workers: `durableObjectProxyState`), so that the app imports
 * no backend's client and bundles for any runtime.
 */
export type ProxyStateFactory = (deps: ProxyStateDeps) => ProxyState;

export const minuteMs = 60_000;

/** The embedded default: everything in this instance's memory (one instance; a restart forgets it). */
export const memoryProxyState: ProxyStateFactory = (deps) => {
  const { config, now } = deps;
  const store = new MemoryKeyValueStore(sessionMemoryCaps(deps.sessionOptions));
  const sessions = new SessionManager(store, cipherOf(config), deps.refresh, deps.sessionOptions);
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
    sharedStore: store,
    fanOut: { store, pubSub: new MemoryPubSub() },
  };
};

/** The key for tokens at rest: the configured one, or (sandbox, memory) one derived from the session secret. */
export function cipherOf(config: ProxyConfig): TokenCipher {
  return createTokenCipher(
    config.tokenEncryptionKey === undefined
      ? keyFromSecret(config.sessionSecret)
      : decodeBase64Url(config.tokenEncryptionKey),
  );
}
