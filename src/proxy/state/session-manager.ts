import { PlatformError } from '../../platform/errors.ts';
import type { TokenSet } from '../../platform/oauth.ts';
import { TokenKeeper } from '../../platform/token-keeper.ts';
import { keyPrefix, type KeyValueStore } from './key-value-store.ts';
import type { MemoryKeyValueStoreOptions } from './memory-key-value-store.ts';
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
import { sleep, tryLock } from './store-lock.ts';
import { digestOf, type TokenCipher } from './token-cipher.ts';

/** What a session key holds: who, and which token record (shared by the session's handoff copies). */
interface SessionRecord {
  readonly userId: string;
  readonly signInOrigin: string;
  readonly grant: string;
  readonly createdAt: number;
  /** When its idle time last started again (absent in records written before it was kept: `createdAt`). */
  readonly renewedAt?: number;
}

/** How long one instance may hold a session's refresh lock; a dead holder's lock frees itself after this. */
const refreshLockMs = 10_000;
/** How long a request waits for another instance's refresh before it gives up. */
const refreshWaitMs = 12_000;
/** Token records opened lately, kept at most (per instance). */
const openedTokensKept = 10_000;
/** A session's idle time starts again at most this often (and at most every tenth of the idle time). */
const renewEveryMs = 60_000;

/**
 * A session id names its token record: `<grant>.<random>`, so a request reads the session and its tokens in one
 * step. The grant part is no secret worth more than the id itself (the tokens are sealed, the id is signed in an
 * HttpOnly cookie); ids written before it (no dot) still work, in two steps.
 */
const grantIn = (sessionId: string): string | undefined => {
  const dot = sessionId.indexOf('.');
  return dot > 0 ? sessionId.slice(0, dot) : undefined;
};

/** The session manager's keys, the same on every backend (and the same as the Redis store's before it). */
const keys = {
  session: (id: string) => `session:${id}`,
  tokens: (grant: string) => `tokens:${grant}`,
  refreshLock: (grant: string) => `lock:refresh:${grant}`,
  pending: (state: string) => `sign-in:${state}`,
  browser: (browserId: string) => `sign-in-browser:${browserId}`,
  handoff: (digest: string) => `handoff:${digest}`,
};

/** The memory store's caps for the manager's namespaces: at most `maxSessions` sessions, `maxPendingSignIns` sign-ins. */
export function sessionMemoryCaps(options: SessionStoreOptions): MemoryKeyValueStoreOptions {
  return {
    maxKeys: {
      session: options.maxSessions,
      tokens: options.maxSessions,
      'sign-in': options.maxPendingSignIns,
      'sign-in-browser': options.maxPendingSignIns,
    },
    defaultMaxKeys: options.maxSessions,
    ...(options.now === undefined ? {} : { now: options.now }),
  };
}

/**
 * The rules of fans' sessions, once, over any `KeyValueStore` (as oauth2-proxy's `persistence/manager.go` over its
 * small store): a session expires after `idleMs` unused and `absoluteMs` in all; a sign-in's `state` and a handoff
 * code are taken once (the store's atomic take: of two callbacks on any instances exactly one gets it); a handoff
 * copy shares its session's token record, so ending one ends all; one refresh at a time per session (a lock in the
 * store across instances, one promise within this one), and who waits reads the winner's tokens. Tokens and PKCE
 * verifiers are sealed with `TokenCipher` before they reach the store; handoff codes are keyed by their digest.
 */
export class SessionManager implements SessionStore {
  readonly #store: KeyValueStore;
  readonly #cipher: TokenCipher;
  readonly #refresh: RefreshTokens;
  readonly #options: SessionStoreOptions;
  readonly #now: () => number;
  readonly #renewEveryMs: number;
  /**
   * The last sealed value of each token record this instance opened, and what it opened to: a fan's next request
   * reads the same sealed value and skips the decryption (a value sealed again, after a refresh, is opened anew).
   * Keyed by the record, so a value copied under another record is still refused by the cipher; dropped when the
   * session ends; at most `openedTokensKept`, the oldest first.
   */
  readonly #opened = new Map<string, { readonly sealed: string; readonly tokens: TokenSet }>();
  /** Refreshes in flight in this instance, per token record: concurrent requests of one fan join one. */
  readonly #refreshing = new Map<string, Promise<TokenSet>>();

  constructor(
    store: KeyValueStore,
    cipher: TokenCipher,
    refresh: RefreshTokens,
    options: SessionStoreOptions,
  ) {
    this.#store = store;
    this.#cipher = cipher;
    this.#refresh = refresh;
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.#renewEveryMs = Math.min(renewEveryMs, options.idleMs / 10);
  }

  /** Live sessions, handoff copies included (metrics): undefined where the store does not count. */
  count(): Promise<number | undefined> {
    return this.#store.count('session');
  }

  async create(signedIn: SignedIn): Promise<Session> {
    const grant = randomId();
    await this.#writeTokens(grant, signedIn.tokens, this.#options.absoluteMs);
    const record: SessionRecord = {
      userId: signedIn.userId,
      signInOrigin: signedIn.signInOrigin,
      grant,
      createdAt: this.#now(),
    };
    return this.#write(record, signedIn.tokens);
  }

  /**
   * The session and its tokens in one read of the store (one Redis round trip). The idle time starts again with a
   * write only when the last one is older than a minute (or a tenth of the idle time): a session then ends at most
   * that much before `idleMs` after its last use, and most reads write nothing.
   */
  async find(id: string | undefined): Promise<Session | undefined> {
    if (id === undefined) return undefined;
    const key = keys.session(id);
    const grant = grantIn(id);
    const [text, sealedTokens] =
      grant === undefined
        ? [await this.#store.get(key), undefined]
        : await this.#store.getMany([key, keys.tokens(grant)]);
    if (text === undefined) return undefined;
    const record = JSON.parse(text) as SessionRecord;
    const ttl = this.#ttlOf(record);
    let tokens: TokenSet | undefined;
    if (ttl > 0) {
      tokens =
        record.grant === grant
          ? await this.#openTokens(record.grant, sealedTokens)
          : await this.#readTokens(record.grant);
    }
    if (tokens === undefined) {
      await this.#store.delete(key);
      return undefined;
    }
    if (this.#now() - (record.renewedAt ?? record.createdAt) >= this.#renewEveryMs) {
      // A session ended meanwhile stays ended.
      const renewed: SessionRecord = { ...record, renewedAt: this.#now() };
      await this.#store.set(key, JSON.stringify(renewed), ttl, 'present');
    }
    return this.#sessionOf(id, record, tokens);
  }

  async clone(session: Session): Promise<Session> {
    const text = await this.#store.get(keys.session(session.id));
    const tokens = session.tokens.tokens;
    if (text === undefined || tokens === undefined) throw new PlatformError('invalid_token', 'Signed out');
    return this.#write(JSON.parse(text) as SessionRecord, tokens);
  }

  async end(session: Session): Promise<void> {
    session.tokens.clear();
    const text = await this.#store.get(keys.session(session.id));
    const grant = text === undefined ? undefined : (JSON.parse(text) as SessionRecord).grant;
    // The token record goes first: every copy of the session reads nothing from it from now on.
    if (grant !== undefined) {
      this.#opened.delete(grant);
      await this.#store.delete(keys.tokens(grant));
    }
    await this.#store.delete(keys.session(session.id));
  }

  async addPending(pending: PendingSignIn): Promise<void> {
    const key = keys.pending(pending.state);
    await this.#store.set(key, await this.#seal(key, JSON.stringify(pending)), this.#options.pendingMs);
    await this.#store.set(keys.browser(pending.browserId), pending.openerOrigin, this.#options.pendingMs);
  }

  async takePending(state: string): Promise<PendingSignIn | undefined> {
    if (state === '') return undefined;
    const key = keys.pending(state);
    const sealed = await this.#store.take(key);
    const plain = sealed === undefined ? undefined : await this.#open(key, sealed);
    return plain === undefined ? undefined : (JSON.parse(plain) as PendingSignIn);
  }

  async pendingOriginOf(browserId: string | undefined): Promise<string | undefined> {
    if (browserId === undefined) return undefined;
    return this.#store.get(keys.browser(browserId));
  }

  async addHandoff(sessionId: string, origin: string, challenge?: string): Promise<string> {
    const code = randomId();
    const handoff: PendingHandoff = { sessionId, origin, ...(challenge === undefined ? {} : { challenge }) };
    await this.#store.set(
      keys.handoff(await digestOf(code)),
      JSON.stringify(handoff),
      this.#options.handoffMs,
    );
    return code;
  }

  async takeHandoff(code: string): Promise<PendingHandoff | undefined> {
    const text = await this.#store.take(keys.handoff(await digestOf(code)));
    if (text === undefined) return undefined;
    const { sessionId, origin, challenge } = JSON.parse(text) as PendingHandoff;
    return { sessionId, origin, ...(challenge === undefined ? {} : { challenge }) };
  }

  async #write(record: SessionRecord, tokens: TokenSet): Promise<Session> {
    const id = `${record.grant}.${randomId()}`;
    await this.#store.set(keys.session(id), JSON.stringify(record), Math.max(1, this.#ttlOf(record)));
    return this.#sessionOf(id, record, tokens);
  }

  /** The session's remaining life: idle time from now, never past its absolute end. */
  #ttlOf(record: SessionRecord): number {
    return Math.min(this.#options.idleMs, record.createdAt + this.#options.absoluteMs - this.#now());
  }

  #sessionOf(id: string, record: SessionRecord, tokens: TokenSet): Session {
    return {
      id,
      userId: record.userId,
      signInOrigin: record.signInOrigin,
      tokens: new TokenKeeper({
        initial: tokens,
        now: this.#now,
        obtain: (current) => this.#sharedRefresh(record, current),
      }),
    };
  }

  /** Sealed values are bound to their full key (as the Redis store names it): one copied elsewhere does not open. */
  #seal(key: string, plain: string): Promise<string> {
    return this.#cipher.seal(plain, keyPrefix + key);
  }

  #open(key: string, sealed: string): Promise<string | undefined> {
    return this.#cipher.open(sealed, keyPrefix + key);
  }

  async #writeTokens(grant: string, tokens: TokenSet, ttlMs: number, only?: 'present'): Promise<boolean> {
    const key = keys.tokens(grant);
    return this.#store.set(key, await this.#seal(key, JSON.stringify(tokens)), ttlMs, only);
  }

  async #readTokens(grant: string): Promise<TokenSet | undefined> {
    return this.#openTokens(grant, await this.#store.get(keys.tokens(grant)));
  }

  async #openTokens(grant: string, sealed: string | undefined): Promise<TokenSet | undefined> {
    if (sealed === undefined) return undefined;
    const known = this.#opened.get(grant);
    if (known?.sealed === sealed) return known.tokens;
    const plain = await this.#open(keys.tokens(grant), sealed);
    if (plain === undefined) return undefined;
    const tokens = JSON.parse(plain) as TokenSet;
    this.#opened.delete(grant);
    if (this.#opened.size >= openedTokensKept) this.#opened.delete(this.#opened.keys().next().value ?? '');
    this.#opened.set(grant, { sealed, tokens });
    return tokens;
  }

  /** One refresh per token record: joined within this instance, locked across instances. */
  #sharedRefresh(record: SessionRecord, current: TokenSet | undefined): Promise<TokenSet> {
    let refreshing = this.#refreshing.get(record.grant);
    if (refreshing === undefined) {
      refreshing = this.#lockedRefresh(record, current).finally(() => {
        this.#refreshing.delete(record.grant);
      });
      this.#refreshing.set(record.grant, refreshing);
    }
    return refreshing;
  }

  /**
   * The lock's holder re-reads the record (another instance may have refreshed meanwhile), refreshes with the
   * stored refresh token and writes the new pair only if the record still exists (a sign-out meanwhile wins). Who
   * does not get the lock waits for the record to change.
   */
  async #lockedRefresh(record: SessionRecord, current: TokenSet | undefined): Promise<TokenSet> {
    const deadline = this.#now() + refreshWaitMs;
    for (;;) {
      const release = await tryLock(this.#store, keys.refreshLock(record.grant), refreshLockMs);
      if (release !== undefined) {
        try {
          return await this.#refreshHeld(record, current);
        } finally {
          await release();
        }
      }
      await sleep(50);
      const stored = await this.#readTokens(record.grant);
      if (stored === undefined) throw new PlatformError('invalid_token', 'Signed out');
      if (stored.accessToken !== current?.accessToken) return stored;
      if (this.#now() > deadline)
        throw new PlatformError('timeout', 'Another instance is renewing the token');
    }
  }

  async #refreshHeld(record: SessionRecord, current: TokenSet | undefined): Promise<TokenSet> {
    const stored = await this.#readTokens(record.grant);
    if (stored === undefined) throw new PlatformError('invalid_token', 'Signed out');
    if (stored.accessToken !== current?.accessToken) return stored;
    const refreshToken = stored.refreshToken;
    if (refreshToken === undefined) throw new PlatformError('invalid_token', 'No refresh token');
    let next: TokenSet;
    try {
      next = await this.#refresh(refreshToken);
    } catch (error) {
      if (error instanceof PlatformError && error.code === 'invalid_token') {
        this.#opened.delete(record.grant);
        await this.#store.delete(keys.tokens(record.grant));
      }
      throw error;
    }
    // A server that does not rotate keeps the old refresh token valid: keep it.
    if (next.refreshToken === undefined) next = { ...next, refreshToken };
    const lifeLeft = record.createdAt + this.#options.absoluteMs - this.#now();
    if (lifeLeft <= 0 || !(await this.#writeTokens(record.grant, next, lifeLeft, 'present')))
      throw new PlatformError('invalid_token', 'Signed out while the token was renewed');
    return next;
  }
}
