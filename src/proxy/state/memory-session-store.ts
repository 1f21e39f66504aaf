import { userTokenKeeper, type TokenKeeper } from '../../platform/token-keeper.ts';
import {
  defaultSessionOptions,
  randomId,
  type PendingHandoff,
  type PendingSignIn,
  type RefreshTokens,
  type Session,
  type SessionStore,
  type SessionStoreOptions,
  type SignedIn,
} from './session-store.ts';

const sweepEveryMs = 60_000;

interface HeldSession extends Session {
  readonly createdAt: number;
  lastSeenAt: number;
}

/**
 * Sessions in this process's memory: the embedded default, for one instance. A restart signs every fan out; with
 * several instances use the Redis store. Copies share one `TokenKeeper` object, so ending one ends all. At most
 * `maxSessions` (handoff copies count): past it the least recently used goes, never an active fan before an idle
 * one; expired sessions are swept once a minute as sessions are made.
 */
export class MemorySessionStore implements SessionStore {
  readonly #sessions = new Map<string, HeldSession>();
  readonly #pending = new Map<string, PendingSignIn & { readonly createdAt: number }>();
  readonly #handoffs = new Map<string, PendingHandoff & { readonly createdAt: number }>();
  readonly #options: SessionStoreOptions;
  readonly #now: () => number;
  readonly #refresh: RefreshTokens;
  #sweptAt = -Infinity;

  constructor(refresh: RefreshTokens, options: SessionStoreOptions = defaultSessionOptions) {
    this.#refresh = refresh;
    this.#options = options;
    this.#now = options.now ?? Date.now;
  }

  /** Sessions held, handoff copies included. */
  get size(): number {
    return this.#sessions.size;
  }

  create(signedIn: SignedIn): Promise<Session> {
    const tokens = userTokenKeeper(this.#refresh, { initial: signedIn.tokens, now: this.#now });
    return Promise.resolve(this.#hold(signedIn.userId, signedIn.signInOrigin, tokens, this.#now()));
  }

  find(id: string | undefined): Promise<Session | undefined> {
    if (id === undefined) return Promise.resolve(undefined);
    const session = this.#sessions.get(id);
    if (session === undefined) return Promise.resolve(undefined);
    const now = this.#now();
    if (
      now - session.lastSeenAt >= this.#options.idleMs ||
      now - session.createdAt >= this.#options.absoluteMs
    ) {
      this.#sessions.delete(id);
      return Promise.resolve(undefined);
    }
    session.lastSeenAt = now;
    // Map order is use order: the first entry is the least recently used.
    this.#sessions.delete(id);
    this.#sessions.set(id, session);
    return Promise.resolve(session);
  }

  clone(session: Session): Promise<Session> {
    const createdAt = this.#sessions.get(session.id)?.createdAt ?? this.#now();
    return Promise.resolve(this.#hold(session.userId, session.signInOrigin, session.tokens, createdAt));
  }

  end(session: Session): Promise<void> {
    session.tokens.clear();
    for (const [id, held] of this.#sessions) if (held.tokens === session.tokens) this.#sessions.delete(id);
    return Promise.resolve();
  }

  addPending(pending: PendingSignIn): Promise<void> {
    const now = this.#now();
    // Oldest first (insertion order): sweeping stops at the first one still good.
    for (const [state, old] of this.#pending) {
      if (now - old.createdAt < this.#options.pendingMs) break;
      this.#pending.delete(state);
    }
    for (const state of this.#pending.keys()) {
      if (this.#pending.size < this.#options.maxPendingSignIns) break;
      this.#pending.delete(state);
    }
    this.#pending.set(pending.state, { ...pending, createdAt: now });
    return Promise.resolve();
  }

  takePending(state: string): Promise<PendingSignIn | undefined> {
    const pending = this.#pending.get(state);
    this.#pending.delete(state);
    if (pending === undefined || this.#now() - pending.createdAt >= this.#options.pendingMs)
      return Promise.resolve(undefined);
    return Promise.resolve(pending);
  }

  pendingOriginOf(browserId: string | undefined): Promise<string | undefined> {
    if (browserId === undefined) return Promise.resolve(undefined);
    const now = this.#now();
    let origin: string | undefined;
    // Only on a failed callback (rate-limited per client), over at most `maxPendingSignIns` entries.
    for (const pending of this.#pending.values()) {
      if (pending.browserId === browserId && now - pending.createdAt < this.#options.pendingMs)
        origin = pending.openerOrigin;
    }
    return Promise.resolve(origin);
  }

  addHandoff(sessionId: string, origin: string): Promise<string> {
    const now = this.#now();
    for (const [code, old] of this.#handoffs) {
      if (now - old.createdAt >= this.#options.handoffMs) this.#handoffs.delete(code);
    }
    const code = randomId();
    this.#handoffs.set(code, { sessionId, origin, createdAt: now });
    return Promise.resolve(code);
  }

  takeHandoff(code: string): Promise<PendingHandoff | undefined> {
    const handoff = this.#handoffs.get(code);
    this.#handoffs.delete(code);
    if (handoff === undefined || this.#now() - handoff.createdAt >= this.#options.handoffMs)
      return Promise.resolve(undefined);
    return Promise.resolve({ sessionId: handoff.sessionId, origin: handoff.origin });
  }

  #sweep(): void {
    const now = this.#now();
    if (now - this.#sweptAt < sweepEveryMs) return;
    this.#sweptAt = now;
    for (const [id, held] of this.#sessions) {
      if (now - held.lastSeenAt >= this.#options.idleMs || now - held.createdAt >= this.#options.absoluteMs)
        this.#sessions.delete(id);
    }
  }

  #hold(userId: string, signInOrigin: string, tokens: TokenKeeper, createdAt: number): Session {
    const session: HeldSession = {
      id: randomId(),
      userId,
      signInOrigin,
      tokens,
      createdAt,
      lastSeenAt: this.#now(),
    };
    this.#sweep();
    this.#sessions.set(session.id, session);
    while (this.#sessions.size > this.#options.maxSessions) {
      const oldest = this.#sessions.keys().next();
      if (oldest.done === true) break;
      this.#sessions.delete(oldest.value);
    }
    return session;
  }
}
