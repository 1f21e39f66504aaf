/**
 * Keeps one token fresh for any number of callers: reuses it until shortly before it expires, runs at most one
 * refresh at a time however many callers wait, and drops a token the platform refused so that the client's one
 * retry gets a fresh one. Serves both kinds: the application's (re-requested with client credentials) and a fan's
 * (refresh-token rotation, with `onTokens` to persist each rotated pair).
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
}

export const defaultRefreshMarginMs = 60_000;

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

  /** A usable access token: the kept one, or a fresh one (one refresh however many callers wait). */
  async token(): Promise<string> {
    const tokens = this.#tokens;
    if (tokens && this.#usable(tokens)) return tokens.accessToken;
    return (await this.refresh()).accessToken;
  }

  /** Forces a refresh, joining one already in flight. */
  refresh(): Promise<TokenSet> {
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
  }

  /** Forgets the tokens (sign-out: clear locally first, revoke after). */
  clear(): void {
    this.#clears += 1;
    this.#tokens = undefined;
    this.#refused = undefined;
  }

  #usable(tokens: TokenSet): boolean {
    if (tokens.accessToken === this.#refused) return false;
    return tokens.expiresAt === undefined || this.#now() < tokens.expiresAt - this.#marginMs;
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
