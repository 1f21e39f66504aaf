import { PlatformError } from '../../platform/errors.ts';
import type { TokenSet } from '../../platform/oauth.ts';
import { TokenKeeper } from '../../platform/token-keeper.ts';
import { keyPrefix, onRedis, type RedisConnection } from './redis-connection.ts';
import { sleep, tryLock } from './redis-lock.ts';
import {
  randomId,
  type PendingHandoff,
  type PendingSignIn,
  type RefreshTokens,
  type Session,
  type SessionStore,
  type SessionStoreOptions,
  type SignedIn,
} from './session-store.ts';
import { digestOf, type TokenCipher } from './token-cipher.ts';

/** What a session key holds: who, and which token record (shared by the session's handoff copies). */
interface SessionRecord {
  readonly userId: string;
  readonly signInOrigin: string;
  readonly grant: string;
  readonly createdAt: number;
}

/** How long one instance may hold a session's refresh lock; a dead holder's lock frees itself after this. */
const refreshLockMs = 10_000;
/** How long a request waits for another instance's refresh before it gives up. */
const refreshWaitMs = 12_000;

const keys = {
  session: (id: string) => `${keyPrefix}session:${id}`,
  tokens: (grant: string) => `${keyPrefix}tokens:${grant}`,
  refreshLock: (grant: string) => `${keyPrefix}lock:refresh:${grant}`,
  pending: (state: string) => `${keyPrefix}sign-in:${state}`,
  browser: (browserId: string) => `${keyPrefix}sign-in-browser:${browserId}`,
  handoff: (digest: string) => `${keyPrefix}handoff:${digest}`,
  sessionIndex: `${keyPrefix}sessions-by-expiry`,
};

/**
 * Sessions on Redis, shared by every instance: a restart or a deploy signs no fan out, and a fan may be served by any
 * instance. Tokens and PKCE verifiers are encrypted at rest (`TokenCipher`); handoff codes are keyed by their
 * digest. Expiry is Redis's (`PX`), sliding on use up to the absolute lifetime. One refresh at a time per session
 * across all instances: a lock that expires; who waits reads the winner's tokens. Every Redis failure is the
 * proxy's `state_unavailable` (503 with `Retry-After`).
 */
export class RedisSessionStore implements SessionStore {
  readonly #redis: RedisConnection;
  readonly #cipher: TokenCipher;
  readonly #refresh: RefreshTokens;
  readonly #options: SessionStoreOptions;
  readonly #now: () => number;

  constructor(
    redis: RedisConnection,
    cipher: TokenCipher,
    refresh: RefreshTokens,
    options: SessionStoreOptions,
  ) {
    this.#redis = redis;
    this.#cipher = cipher;
    this.#refresh = refresh;
    this.#options = options;
    this.#now = options.now ?? Date.now;
  }

  /**
   * Live sessions of every instance, copies included: an index sorted by expiry kept beside them (no SCAN), trimmed
   * of the expired ones when counted.
   */
  async count(): Promise<number> {
    await this.#redis.zRemRangeByScore(keys.sessionIndex, '-inf', this.#now());
    return this.#redis.zCard(keys.sessionIndex);
  }

  create(signedIn: SignedIn): Promise<Session> {
    return onRedis(async () => {
      const grant = randomId();
      const createdAt = this.#now();
      await this.#redis.set(keys.tokens(grant), await this.#sealTokens(grant, signedIn.tokens), {
        expiration: { type: 'PX', value: this.#options.absoluteMs },
      });
      const record: SessionRecord = {
        userId: signedIn.userId,
        signInOrigin: signedIn.signInOrigin,
        grant,
        createdAt,
      };
      return this.#write(record, signedIn.tokens);
    });
  }

  find(id: string | undefined): Promise<Session | undefined> {
    if (id === undefined) return Promise.resolve(undefined);
    return onRedis(async () => {
      const text = await this.#redis.get(keys.session(id));
      if (text === null) return undefined;
      const record = JSON.parse(text) as SessionRecord;
      const ttl = this.#ttlOf(record);
      const tokens = ttl > 0 ? await this.#readTokens(record.grant) : undefined;
      if (tokens === undefined) {
        await this.#redis.multi().del(keys.session(id)).zRem(keys.sessionIndex, id).exec();
        return undefined;
      }
      await this.#redis
        .multi()
        .pExpire(keys.session(id), ttl)
        .zAdd(keys.sessionIndex, { score: this.#now() + ttl, value: id })
        .exec();
      return this.#sessionOf(id, record, tokens);
    });
  }

  clone(session: Session): Promise<Session> {
    return onRedis(async () => {
      const text = await this.#redis.get(keys.session(session.id));
      const tokens = session.tokens.tokens;
      if (text === null || tokens === undefined) throw new PlatformError('invalid_token', 'Signed out');
      return this.#write(JSON.parse(text) as SessionRecord, tokens);
    });
  }

  end(session: Session): Promise<void> {
    session.tokens.clear();
    return onRedis(async () => {
      const text = await this.#redis.get(keys.session(session.id));
      const grant = text === null ? undefined : (JSON.parse(text) as SessionRecord).grant;
      // The token record goes first: every copy of the session reads nothing from it from now on.
      if (grant !== undefined) await this.#redis.del(keys.tokens(grant));
      await this.#redis.multi().del(keys.session(session.id)).zRem(keys.sessionIndex, session.id).exec();
    });
  }

  addPending(pending: PendingSignIn): Promise<void> {
    return onRedis(async () => {
      const key = keys.pending(pending.state);
      const expiration = { type: 'PX', value: this.#options.pendingMs } as const;
      await this.#redis.set(key, await this.#cipher.seal(JSON.stringify(pending), key), { expiration });
      await this.#redis.set(keys.browser(pending.browserId), pending.openerOrigin, { expiration });
    });
  }

  takePending(state: string): Promise<PendingSignIn | undefined> {
    if (state === '') return Promise.resolve(undefined);
    return onRedis(async () => {
      const key = keys.pending(state);
      // GETDEL: of two callbacks with one state, on any instances, exactly one gets it.
      const sealed = await this.#redis.getDel(key);
      if (sealed === null) return undefined;
      const plain = await this.#cipher.open(sealed, key);
      return plain === undefined ? undefined : (JSON.parse(plain) as PendingSignIn);
    });
  }

  pendingOriginOf(browserId: string | undefined): Promise<string | undefined> {
    if (browserId === undefined) return Promise.resolve(undefined);
    return onRedis(async () => (await this.#redis.get(keys.browser(browserId))) ?? undefined);
  }

  addHandoff(sessionId: string, origin: string): Promise<string> {
    return onRedis(async () => {
      const code = randomId();
      const handoff: PendingHandoff = { sessionId, origin };
      await this.#redis.set(keys.handoff(await digestOf(code)), JSON.stringify(handoff), {
        expiration: { type: 'PX', value: this.#options.handoffMs },
      });
      return code;
    });
  }

  takeHandoff(code: string): Promise<PendingHandoff | undefined> {
    return onRedis(async () => {
      const text = await this.#redis.getDel(keys.handoff(await digestOf(code)));
      return text === null ? undefined : (JSON.parse(text) as PendingHandoff);
    });
  }

  async #write(record: SessionRecord, tokens: TokenSet): Promise<Session> {
    const id = randomId();
    const ttl = Math.max(1, this.#ttlOf(record));
    await this.#redis
      .multi()
      .set(keys.session(id), JSON.stringify(record), { expiration: { type: 'PX', value: ttl } })
      .zAdd(keys.sessionIndex, { score: this.#now() + ttl, value: id })
      .exec();
    return this.#sessionOf(id, record, tokens);
  }

  /** The session's remaining life: idle time from now, never past its absolute end. */
  #ttlOf(record: SessionRecord): number {
    const now = this.#now();
    return Math.min(this.#options.idleMs, record.createdAt + this.#options.absoluteMs - now);
  }

  #sessionOf(id: string, record: SessionRecord, tokens: TokenSet): Session {
    return {
      id,
      userId: record.userId,
      signInOrigin: record.signInOrigin,
      tokens: new TokenKeeper({
        initial: tokens,
        now: this.#now,
        obtain: (current) => this.#sharedRefresh(record.grant, current),
      }),
    };
  }

  async #sealTokens(grant: string, tokens: TokenSet): Promise<string> {
    return this.#cipher.seal(JSON.stringify(tokens), keys.tokens(grant));
  }

  async #readTokens(grant: string): Promise<TokenSet | undefined> {
    const sealed = await this.#redis.get(keys.tokens(grant));
    if (sealed === null) return undefined;
    const plain = await this.#cipher.open(sealed, keys.tokens(grant));
    return plain === undefined ? undefined : (JSON.parse(plain) as TokenSet);
  }

  /**
   * One refresh per session across every instance. The lock's holder re-reads the record (another instance may have
   * refreshed meanwhile), refreshes with the stored refresh token and writes the new pair only if the record still
   * exists (`XX`: a sign-out meanwhile wins). Who does not get the lock waits for the record to change.
   */
  #sharedRefresh(grant: string, current: TokenSet | undefined): Promise<TokenSet> {
    return onRedis(async () => {
      const deadline = this.#now() + refreshWaitMs;
      for (;;) {
        const release = await tryLock(this.#redis, keys.refreshLock(grant), refreshLockMs);
        if (release !== undefined) {
          try {
            return await this.#refreshHeld(grant, current);
          } finally {
            await release();
          }
        }
        await sleep(50);
        const stored = await this.#readTokens(grant);
        if (stored === undefined) throw new PlatformError('invalid_token', 'Signed out');
        if (stored.accessToken !== current?.accessToken) return stored;
        if (this.#now() > deadline)
          throw new PlatformError('timeout', 'Another instance is renewing the token');
      }
    });
  }

  async #refreshHeld(grant: string, current: TokenSet | undefined): Promise<TokenSet> {
    const stored = await this.#readTokens(grant);
    if (stored === undefined) throw new PlatformError('invalid_token', 'Signed out');
    if (stored.accessToken !== current?.accessToken) return stored;
    const refreshToken = stored.refreshToken;
    if (refreshToken === undefined) throw new PlatformError('invalid_token', 'No refresh token');
    let next: TokenSet;
    try {
      next = await this.#refresh(refreshToken);
    } catch (error) {
      if (error instanceof PlatformError && error.code === 'invalid_token') {
        await this.#redis.del(keys.tokens(grant));
      }
      throw error;
    }
    if (next.refreshToken === undefined) next = { ...next, refreshToken };
    const written = await this.#redis.set(keys.tokens(grant), await this.#sealTokens(grant, next), {
      condition: 'XX',
      expiration: 'KEEPTTL',
    });
    if (written !== 'OK') throw new PlatformError('invalid_token', 'Signed out while the token was renewed');
    return next;
  }
}
