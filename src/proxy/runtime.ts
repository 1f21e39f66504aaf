import type { Context } from 'hono';
import type { ProxyAnalytics } from './analytics/proxy-analytics.ts';
import type { ProxyConfig } from './config.ts';
import type { ProxyLogger } from './logger.ts';
import type { PlatformAccess } from './platform-access.ts';
import type { ResponseCache } from './response-cache.ts';
import type { SessionIdReader } from './session-cookie.ts';
import type { FrameCredentials } from './frame-session.ts';
import type { ProxyState } from './state/proxy-state.ts';
import type { RateLimiter } from './state/rate-limiter.ts';
import type { SessionStore } from './state/session-store.ts';

/** Everything the route groups share, built once by `createProxyApp`. */
export interface ProxyRuntime {
  readonly config: ProxyConfig;
  readonly logger: ProxyLogger;
  readonly now: () => number;
  readonly platform: PlatformAccess;
  readonly sessions: SessionStore;
  /** Memory or Redis; `ready()` for `/readyz`. */
  readonly state: ProxyState;
  readonly pollCache: ResponseCache;
  /** Sign-in starts, callbacks and the extension's code exchange, per client address. */
  readonly signInLimiter: RateLimiter;
  /** The extension's refresh and revoke, per client address: higher than the sign-in limit. */
  readonly tokenMediationLimiter: RateLimiter;
  /** The client's address for rate limits; the runtime adapter knows it (Node: the socket), the app does not. */
  readonly clientAddress: (c: Context) => string;
  readonly isAllowedPage: (origin: string) => boolean;
  /** Session lifetime for the cookie's Max-Age, seconds. */
  readonly sessionCookieMaxAge: number;
  /**
   * The verified session id of a request: its session frame's credential (from the proxy's own origin only), else its
   * cookie's (HMAC checked once per cookie value).
   */
  readonly readSessionId: SessionIdReader;
  /** Signs and checks the credentials session frames keep (`frame-session.ts`). */
  readonly frameCredentials: FrameCredentials;
  /** The public URL is plain http (only the loopback sandbox allows it): see `plainHttpSessionCookieName`. */
  readonly servedOverPlainHttp: boolean;
  /** The club's analytics: the routes tell it what the proxy did (`analytics/proxy-analytics.ts`). */
  readonly analytics: ProxyAnalytics;
}
