/**
 * Keeps one token fresh for any number of callers: reuses it until shortly before it expires, runs at most one
 * refresh at a time however many callers wait (single flight, per application and per session), and drops a token
 * the platform refused so that the client's one retry gets a fresh one. A failed refresh is remembered: callers
 * within its backoff (1 s doubling to 10 s, with jitter) get the same failure without a token request, and a token
 * that is only near its expiry (inside the margin, not past it) is still served meanwhile. Serves both kinds: the
 * application's (re-requested with client credentials) and a fan's (refresh-token rotation, with `onTokens` to
 * persist each rotated pair).
 */
import { PlatformError } from './errors.ts';
import type { OAuthClient, TokenSet } from './oauth.ts';

export interface TokenKeeperOptions {
  /** Gets a new token set; receives the current one (a fan's refresh token lives there). */
  readonly obtain: (current: TokenSet | undefined) => Promise<TokenSet>;
  readonly initial?: TokenSet;
  /** Refresh this long before `expiresAt`. Default 60 s. */
  readonly marginMs?: number;
  readonly now?: () => number;
  /** Called with every new token set (persist the rotated pair); its failure does not fail the caller. */
  readonly onTokens?: (tokens: TokenSet) => void | Promise<void>;
  /** Called once when the tokens are gone for good (a refused refresh token). */
  readonly onSignedOut?: () => void;
  /** After a failed refresh, no new one for this long, doubling with each failure up to `retryMaxMs`. */
  readonly retryBaseMs?: number;
  readonly retryMaxMs?: number;
  /** In [0, 1): the jitter of each backoff (tests pin it). */
  readonly random?: () => number;
}

export const defaultRefreshMarginMs = 60_000;
const tokenRetryDefaults = { baseMs: 1000, maxMs: 10_000, jitter: 0.25 } as const;

export class TokenKeeper {
  readonly #options: TokenKeeperOptions;
  readonly #now: () => number;
  readonly #marginMs: number;
  #tokens: TokenSet | undefined;
  /** The access token the platform refused; the next `token()` replaces it. */
  #refused: string | undefined;
  #inFlight: Promise<TokenSet> | undefined;
  /** Counts `clear()` calls: a refresh that was in flight across one must not bring the tokens back. */
  #clears = 0;
  /** The last refresh's failure and until when it stands for every caller. */
  #failure: { readonly error: Error; readonly until: number; readonly count: number } | undefined;

  constructor(options: TokenKeeperOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.#marginMs = options.marginMs ?? defaultRefreshMarginMs;
    this.#tokens = options.initial;
  }

  /** The current token set, if any (for storage or sign-out). */
  get tokens(): TokenSet | undefined {
    return this.#tokens;
  }

  /**
   * A usable access token: the kept one, or a fresh one (one refresh however many callers wait). When the refresh
   * fails (or is backing off) and the kept token is only inside the margin, not expired or refused, it is served.
   */
  async token(): Promise<string> {
    const tokens = this.#tokens;
    if (tokens && this.#usable(tokens)) return tokens.accessToken;
    try {
      return (await this.refresh()).accessToken;
    } catch (error) {
      const kept = this.#tokens;
      if (kept !== undefined && this.#notExpired(kept)) return kept.accessToken;
      throw error;
    }
  }

  /** Forces a refresh, joining one already in flight; within a failed refresh's backoff, fails the same way at once. */
  refresh(): Promise<TokenSet> {
    if (this.#inFlight === undefined && this.#failure !== undefined && this.#now() < this.#failure.until) {
      return Promise.reject(this.#failure.error);
    }
    this.#inFlight ??= this.#obtain().finally(() => {
      this.#inFlight = undefined;
    });
    return this.#inFlight;
  }

  /**
   * The platform refused `refusedToken`. Resolves true when a retry with a fresh token makes sense: the refused
   * token is dropped (a newer one may already be here), false once the keeper has nothing to refresh with.
   */
  invalidate(refusedToken: string): Promise<boolean> {
    if (this.#tokens?.accessToken === refusedToken) this.#refused = refusedToken;
    return Promise.resolve(this.#tokens !== undefined || this.#inFlight !== undefined);
  }

  /** Installs tokens (after sign-in). */
  set(tokens: TokenSet): void {
    this.#tokens = tokens;
    this.#refused = undefined;
    this.#failure = undefined;
  }

  /** Forgets the tokens (sign-out: clear locally first, revoke after). */
  clear(): void {
    this.#clears += 1;
    this.#tokens = undefined;
    this.#refused = undefined;
    this.#failure = undefined;
  }

  #usable(tokens: TokenSet): boolean {
    if (tokens.accessToken === this.#refused) return false;
    return tokens.expiresAt === undefined || this.#now() < tokens.expiresAt - this.#marginMs;
  }

  #notExpired(tokens: TokenSet): boolean {
    return (
      tokens.accessToken !== this.#refused && tokens.expiresAt !== undefined && this.#now() < tokens.expiresAt
    );
  }

  #remember(error: Error): void {
    const count = (this.#failure?.count ?? 0) + 1;
    const base = this.#options.retryBaseMs ?? tokenRetryDefaults.baseMs;
    const nominal = Math.min(base * 2 ** (count - 1), this.#options.retryMaxMs ?? tokenRetryDefaults.maxMs);
    const random = this.#options.random ?? Math.random;
    const backoff = Math.round(nominal * (1 - tokenRetryDefaults.jitter * random()));
    this.#failure = { error, until: this.#now() + backoff, count };
  }

  async #obtain(): Promise<TokenSet> {
    const clearsAtStart = this.#clears;
    let next: TokenSet;
    try {
      next = await this.#options.obtain(this.#tokens);
    } catch (error) {
      if (error instanceof PlatformError && error.code === 'invalid_token') {
        this.clear();
        this.#options.onSignedOut?.();
      } else if (!(error instanceof PlatformError && error.code === 'throttled')) {
        // A throttled or held call carries its own Retry-After; anything else backs off here.
        this.#remember(error instanceof Error ? error : new PlatformError('network', String(error)));
      }
      throw error;
    }
    if (this.#clears !== clearsAtStart) {
      throw new PlatformError('invalid_token', 'Signed out while the token was being renewed');
    }
    this.set(next);
    try {
      await this.#options.onTokens?.(next);
    } catch {
      // The new pair works in memory; storage failing must not fail the request that needed the token.
    }
    return next;
  }
}

/** The application's token: client credentials, re-requested when it nears expiry or is refused. */
export function applicationTokenKeeper(
  oauth: Pick<OAuthClient, 'clientCredentials'>,
  options: Omit<TokenKeeperOptions, 'obtain'> = {},
): TokenKeeper {
  return new TokenKeeper({ ...options, obtain: () => oauth.clientCredentials() });
}

/**
 * A fan's tokens: refreshed with the refresh token (rotation: the new pair replaces the old, `onTokens` persists
 * it). `refresh` is `OAuthClient.refresh` on a server, or a call to the proxy's refresh route in the extension.
 * Without a refresh token, or when the refresh token is refused, the fan is signed out (`invalid_token`).
 */
export function userTokenKeeper(
  refresh: (refreshToken: string) => Promise<TokenSet>,
  options: Omit<TokenKeeperOptions, 'obtain'> = {},
): TokenKeeper {
  return new TokenKeeper({
    ...options,
    obtain: async (current) => {
      const refreshToken = current?.refreshToken;
      if (refreshToken === undefined) {
        throw new PlatformError('invalid_token', 'Not signed in, or no refresh token to renew the session');
      }
      const next = await refresh(refreshToken);
      // A server that does not rotate keeps the old refresh token valid: keep it.
      return next.refreshToken === undefined ? { ...next, refreshToken } : next;
    },
  });
}
