import type { TokenKeeper } from '../platform/token-keeper.ts';

/**
 * Fans' sessions, held on the server: the browser has only an opaque, signed id in an HttpOnly cookie, so no script
 * on any page can read a fan's token. A session exists only once a fan has signed in: a sign-in in progress lives in
 * its pending entry alone, so starting sign-ins (which anyone can do) never pushes a signed-in fan out. In memory,
 * per process; a partner running several instances swaps this class for a shared store with the same methods.
 */
export interface Session {
  readonly id: string;
  readonly createdAt: number;
  lastSeenAt: number;
  readonly userId: string;
  /**
   * The fan's tokens, refreshed with rotation, one refresh in flight. Shared with the session's handoff copies:
   * clearing it (sign-out, another sign-in over this session) ends them all.
   */
  readonly tokens: TokenKeeper;
  /** The card origin the sign-in came from: where a later failed callback in this browser reports. */
  readonly signInOrigin: string;
}

/** A sign-in between `/auth/login` and `/auth/callback`, found by its `state`. */
export interface PendingSignIn {
  readonly state: string;
  readonly codeVerifier: string;
  /** The exact origin of the card that opened the popup: the callback page posts its result there only. */
  readonly openerOrigin: string;
  /**
   * The id in the session cookie of the browser that started it (its session's, or a fresh one when it has none):
   * the callback must come back in the same browser (login CSRF).
   */
  readonly browserId: string;
  /** The card asked for a handoff code (`handoff=1`): it will redeem it from its own cookie partition. */
  readonly handoff: boolean;
  readonly createdAt: number;
}

/** A signed-in session waiting to be handed to the card's own cookie partition (`POST /auth/handoff`). */
export interface PendingHandoff {
  readonly sessionId: string;
  /** The card origin that started the sign-in: the only origin that may redeem the code. */
  readonly origin: string;
  readonly createdAt: number;
}

export interface SessionStoreOptions {
  /** A session unused this long is gone. */
  readonly idleMs: number;
  /** A session is gone this long after it was created, used or not. */
  readonly absoluteMs: number;
  /** How long a sign-in may take between login and callback. */
  readonly pendingMs: number;
  /** Sign-ins in progress kept at most; past it the oldest is dropped (its fan starts again). */
  readonly maxPendingSignIns: number;
  /** How long a handoff code may wait to be redeemed (single use). */
  readonly handoffMs: number;
  readonly maxSessions: number;
  readonly now?: () => number;
}

export const defaultSessionOptions: SessionStoreOptions = {
  idleMs: 24 * 60 * 60 * 1000,
  absoluteMs: 7 * 24 * 60 * 60 * 1000,
  pendingMs: 10 * 60 * 1000,
  maxPendingSignIns: 10_000,
  handoffMs: 60 * 1000,
  maxSessions: 100_000,
};

export class SessionStore {
  readonly #sessions = new Map<string, Session>();
  readonly #pending = new Map<string, PendingSignIn>();
  readonly #handoffs = new Map<string, PendingHandoff>();
  readonly #options: SessionStoreOptions;
  readonly #now: () => number;

  constructor(options: SessionStoreOptions = defaultSessionOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
  }

  /** A signed-in session under a fresh id (an id planted before sign-in is worth nothing: session fixation). */
  create(signedIn: Pick<Session, 'userId' | 'tokens' | 'signInOrigin'>): Session {
    const now = this.#now();
    const session: Session = { ...signedIn, id: randomId(), createdAt: now, lastSeenAt: now };
    this.#sessions.set(session.id, session);
    while (this.#sessions.size > this.#options.maxSessions) {
      const oldest = this.#sessions.keys().next();
      if (oldest.done === true) break;
      this.#sessions.delete(oldest.value);
    }
    return session;
  }

  find(id: string | undefined): Session | undefined {
    if (id === undefined) return undefined;
    const session = this.#sessions.get(id);
    if (session === undefined) return undefined;
    const now = this.#now();
    if (
      now - session.lastSeenAt >= this.#options.idleMs ||
      now - session.createdAt >= this.#options.absoluteMs
    ) {
      this.#sessions.delete(id);
      return undefined;
    }
    session.lastSeenAt = now;
    return session;
  }

  /**
   * A second id for the same signed-in state (same tokens, same absolute lifetime), for another cookie partition of
   * the same browser: signing out through either clears the shared tokens, so both end.
   */
  clone(session: Session): Session {
    const copy: Session = { ...session, id: randomId(), lastSeenAt: this.#now() };
    this.#sessions.set(copy.id, copy);
    return copy;
  }

  delete(id: string): void {
    this.#sessions.delete(id);
  }

  /** Keeps a sign-in in progress: expired ones are swept, and past the cap the oldest gives way. */
  addPending(pending: Omit<PendingSignIn, 'createdAt'>): void {
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
  }

  /** Finds and removes a pending sign-in: a `state` is good for one callback only. */
  takePending(state: string): PendingSignIn | undefined {
    const pending = this.#pending.get(state);
    this.#pending.delete(state);
    if (pending === undefined || this.#now() - pending.createdAt >= this.#options.pendingMs) return undefined;
    return pending;
  }

  /** The card origin of this browser's latest sign-in still in progress: where a callback with a lost state reports. */
  pendingOriginOf(browserId: string | undefined): string | undefined {
    if (browserId === undefined) return undefined;
    const now = this.#now();
    let origin: string | undefined;
    // Only on a failed callback (rate-limited per client), over at most `maxPendingSignIns` entries.
    for (const pending of this.#pending.values()) {
      if (pending.browserId === browserId && now - pending.createdAt < this.#options.pendingMs)
        origin = pending.openerOrigin;
    }
    return origin;
  }

  /** A fresh single-use code (256 random bits) that hands `sessionId` to a page of `origin`. */
  addHandoff(sessionId: string, origin: string): string {
    const now = this.#now();
    for (const [code, old] of this.#handoffs) {
      if (now - old.createdAt >= this.#options.handoffMs) this.#handoffs.delete(code);
    }
    const code = randomId();
    this.#handoffs.set(code, { sessionId, origin, createdAt: now });
    return code;
  }

  /** Finds and removes a handoff: a code is gone after its first use, right or wrong, and after `handoffMs`. */
  takeHandoff(code: string): PendingHandoff | undefined {
    const handoff = this.#handoffs.get(code);
    this.#handoffs.delete(code);
    if (handoff === undefined || this.#now() - handoff.createdAt >= this.#options.handoffMs) return undefined;
    return handoff;
  }
}

/** 256 random bits, base64url. */
export function randomId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
