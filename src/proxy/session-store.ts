import type { TokenKeeper } from '../platform/token-keeper.ts';

/**
 * Fans' sessions, held on the server: the browser has only an opaque, signed id in an HttpOnly cookie, so no script
 * on any page can read a fan's token. In memory, per process; a partner running several instances swaps this class
 * for a shared store with the same methods.
 */
export interface Session {
  readonly id: string;
  readonly createdAt: number;
  lastSeenAt: number;
  userId: string | undefined;
  /** The fan's tokens, refreshed with rotation, one refresh in flight; undefined when not signed in. */
  tokens: TokenKeeper | undefined;
  /** The card origin of the last sign-in started here: where a failed callback reports when its state is lost. */
  signInOrigin: string | undefined;
}

/** A sign-in between `/auth/login` and `/auth/callback`, found by its `state`. */
export interface PendingSignIn {
  readonly state: string;
  readonly codeVerifier: string;
  /** The exact origin of the card that opened the popup: the callback page posts its result there only. */
  readonly openerOrigin: string;
  /** The session (cookie) that started it: the callback must come back in the same browser. */
  readonly sessionId: string;
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
  /** How long a handoff code may wait to be redeemed (single use). */
  readonly handoffMs: number;
  readonly maxSessions: number;
  readonly now?: () => number;
}

export const defaultSessionOptions: SessionStoreOptions = {
  idleMs: 24 * 60 * 60 * 1000,
  absoluteMs: 7 * 24 * 60 * 60 * 1000,
  pendingMs: 10 * 60 * 1000,
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

  create(): Session {
    const now = this.#now();
    const session: Session = {
      id: randomId(),
      createdAt: now,
      lastSeenAt: now,
      userId: undefined,
      tokens: undefined,
      signInOrigin: undefined,
    };
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

  /** Moves a session to a new id (after sign-in, against session fixation). */
  rotate(session: Session): Session {
    this.#sessions.delete(session.id);
    const next: Session = { ...session, id: randomId(), lastSeenAt: this.#now() };
    this.#sessions.set(next.id, next);
    return next;
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

  addPending(pending: Omit<PendingSignIn, 'createdAt'>): void {
    const now = this.#now();
    for (const [state, old] of this.#pending) {
      if (now - old.createdAt >= this.#options.pendingMs) this.#pending.delete(state);
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
