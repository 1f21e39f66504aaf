import { randomUUID } from 'node:crypto';
import type { Clock } from './clock.ts';

/** What a token was issued for: an application alone, or an application acting for a fan. */
export type TokenKind = 'application' | 'user';

export interface TokenGrant {
  readonly kind: TokenKind;
  readonly clientId: string;
  /** Set for user tokens. */
  readonly userId?: string;
}

export type AccessTokenLookup =
  | { readonly ok: true; readonly grant: TokenGrant }
  | { readonly ok: false; readonly reason: 'unknown' | 'expired' | 'revoked' };

export interface IssuedTokens {
  readonly accessToken: string;
  readonly expiresIn: number;
  readonly refreshToken?: string;
}

export interface TokenLifetimes {
  readonly accessTokenSeconds: number;
  readonly refreshTokenSeconds: number;
  readonly applicationTokenSeconds: number;
}

interface TokenPair {
  readonly grant: TokenGrant;
  readonly accessToken: string;
  readonly accessExpiresAt: number;
  readonly refreshToken: string | undefined;
  readonly refreshExpiresAt: number;
  /** The authorization code this pair came from (directly or by refresh), so that code re-use can revoke it. */
  readonly codeId: string | undefined;
  revoked: boolean;
}

/**
 * Every access and refresh token the sandbox's OAuth server has issued. The resource API asks it about bearer
 * tokens; the OAuth server issues, rotates and revokes through it. Revoking either token of a pair revokes both.
 */
export class TokenStore {
  readonly #byAccessToken = new Map<string, TokenPair>();
  readonly #byRefreshToken = new Map<string, TokenPair>();

  constructor(
    private readonly clock: Clock,
    private readonly lifetimes: TokenLifetimes,
    /** Prefix of every token, so that tests can search for leaked tokens (a canary). */
    private readonly tokenPrefix = '',
  ) {}

  issueApplicationToken(clientId: string): IssuedTokens {
    const pair = this.#store(
      { kind: 'application', clientId },
      this.lifetimes.applicationTokenSeconds,
      undefined,
    );
    return { accessToken: pair.accessToken, expiresIn: this.lifetimes.applicationTokenSeconds };
  }

  issueUserTokens(clientId: string, userId: string, codeId?: string): Required<IssuedTokens> {
    const pair = this.#store(
      { kind: 'user', clientId, userId },
      this.lifetimes.accessTokenSeconds,
      codeId,
      true,
    );
    return {
      accessToken: pair.accessToken,
      refreshToken: pair.refreshToken ?? '',
      expiresIn: this.lifetimes.accessTokenSeconds,
    };
  }

  lookupAccessToken(accessToken: string): AccessTokenLookup {
    const pair = this.#byAccessToken.get(accessToken);
    if (!pair) return { ok: false, reason: 'unknown' };
    if (pair.revoked) return { ok: false, reason: 'revoked' };
    if (this.clock.now() >= pair.accessExpiresAt) return { ok: false, reason: 'expired' };
    return { ok: true, grant: pair.grant };
  }

  /** Rotates a refresh token: a new pair for the same grant, the old pair revoked. Undefined when not usable. */
  refresh(clientId: string, refreshToken: string): Required<IssuedTokens> | undefined {
    const pair = this.#byRefreshToken.get(refreshToken);
    if (!pair || pair.revoked || pair.grant.clientId !== clientId) return undefined;
    if (this.clock.now() >= pair.refreshExpiresAt) return undefined;
    pair.revoked = true;
    const next = this.#store(pair.grant, this.lifetimes.accessTokenSeconds, pair.codeId, true);
    return {
      accessToken: next.accessToken,
      refreshToken: next.refreshToken ?? '',
      expiresIn: this.lifetimes.accessTokenSeconds,
    };
  }

  /** Revokes the pair that holds this access or refresh token, if the client owns it. Silent otherwise. */
  revoke(clientId: string, token: string): void {
    const pair = this.#byAccessToken.get(token) ?? this.#byRefreshToken.get(token);
    if (pair && pair.grant.clientId === clientId) pair.revoked = true;
  }

  /** Revokes every pair issued from an authorization code (the code was presented twice). */
  revokeIssuedFromCode(codeId: string): void {
    for (const pair of this.#byAccessToken.values()) {
      if (pair.codeId === codeId) pair.revoked = true;
    }
  }

  #store(
    grant: TokenGrant,
    lifetimeSeconds: number,
    codeId: string | undefined,
    withRefresh = false,
  ): TokenPair {
    const now = this.clock.now();
    const pair: TokenPair = {
      grant,
      accessToken: this.#newToken(),
      accessExpiresAt: now + lifetimeSeconds * 1000,
      refreshToken: withRefresh ? this.#newToken() : undefined,
      refreshExpiresAt: now + this.lifetimes.refreshTokenSeconds * 1000,
      codeId,
      revoked: false,
    };
    this.#byAccessToken.set(pair.accessToken, pair);
    if (pair.refreshToken) this.#byRefreshToken.set(pair.refreshToken, pair);
    return pair;
  }

  #newToken(): string {
    return `${this.tokenPrefix}${randomUUID()}`;
  }
}
