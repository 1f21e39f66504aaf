import {
  DurableObjectKeyValueStore,
  DurableObjectRateLimiter,
  type DurableObjectStoreOptions,
} from './durable-object-key-value-store.ts';
import type { ShardNamespace } from './durable-object-protocol.ts';
import { withLocalFallback } from './local-fallback-limiter.ts';
import { MemoryRateLimiter } from './memory-rate-limiter.ts';
import { cipherOf, minuteMs, type FanOutState, type ProxyStateFactory } from './proxy-state.ts';
import { SessionManager } from './session-manager.ts';
import { sharedApplicationTokenKeeper } from './shared-application-token.ts';
import { sharedHold } from './shared-hold.ts';

/**
 * The state on Durable Objects (Workers: the edge entry injects this with its `FAN_POLLS_STATE` binding), shared by
 * every isolate as Redis is by every Node instance: the same session manager over the same store contract, tokens
 * and verifiers sealed at rest, single-use codes taken atomically, the refresh lock, the rate limits, the application
 * token and the platform guard's hold. Public reads' counters fall back to the isolate's own while it does not answer.
 */
export function durableObjectProxyState(
  namespace: ShardNamespace,
  options: DurableObjectStoreOptions & {
    /**
     * The poll streams' fan-out, given only to the app inside the one Durable Object that holds every stream
     * (`src/edge/poll-stream-object.ts`): the isolates hand it their streams, so they need none.
     */
    readonly fanOut?: FanOutState;
  } = {},
): ProxyStateFactory {
  return (deps) => {
    const { config, now } = deps;
    const cipher = cipherOf(config);
    const store = new DurableObjectKeyValueStore(namespace, options);
    const sessions = new SessionManager(store, cipher, deps.refresh, deps.sessionOptions);
    const limiter = (name: string, limit: number) =>
      new DurableObjectRateLimiter(store, name, limit, minuteMs);
    return {
      kind: 'durable-object',
      sessions,
      signInLimiter: limiter('sign-in', config.signInPerMinute),
      tokenMediationLimiter: limiter('token-mediation', config.tokenMediationPerMinute),
      publicMissLimiter: withLocalFallback(
        limiter('public-misses', config.publicMissesPerClientPerMinute),
        new MemoryRateLimiter(config.publicMissesPerClientPerMinute, minuteMs, now),
      ),
      publicReadBudget: withLocalFallback(
        limiter('public-reads', config.publicReadsPerMinute),
        new MemoryRateLimiter(config.publicReadsPerMinute, minuteMs, now),
      ),
      applicationTokens: (oauth) => sharedApplicationTokenKeeper(oauth, store, cipher, deps.logger, now),
      platformHold: sharedHold(store),
      activeSessions: () => sessions.count().catch(() => undefined),
      sharedStore: store,
      ...(options.fanOut === undefined ? {} : { fanOut: options.fanOut }),
      readiness: () =>
        store.get('readiness-probe').then(
          () => ({ ready: true, warnings: [] }),
          () => ({ ready: false, warnings: [] }),
        ),
      close: () => undefined,
    };
  };
}
