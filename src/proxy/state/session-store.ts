import { encodeBase64Url } from 'hono/utils/encode';
import type { TrackingParameters } from '../../contracts/tracking.ts';
import type { TokenSet } from '../../platform/oauth.ts';
import type { TokenKeeper } from '../../platform/token-keeper.ts';

/**
 * Fans' sessions, held on the server: the browser has only an opaque, signed id in an HttpOnly cookie, so no script
 * on any page can read a fan's token. A session exists only once a fan has signed in: a sign-in in progress lives in
 * its pending entry alone, so starting sign-ins (which anyone can do) never pushes a signed-in fan out. One
 * implementation of the rules, `SessionManager` (`session-manager.ts`), over a small key-value store: in memory (the
 * embedded default) or on Redis (shared by every instance).
 */
export interface Session {
  readonly id: string;
  readonly userId: string;
  /**
   * The fan's tokens, refreshed with rotation, one refresh in flight (across every instance with Redis). Shared with
   * the session's handoff copies: ending the session (sign-out, another sign-in over it) ends them all.
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
  /**
   * A sign-in without a pop-up: the checked page (on `openerOrigin`) the callback sends the fan back to, with the
   * handoff code or the error in its fragment, instead of ending on the proxy's page.
   */
  readonly returnUrl?: string;
  /** With `returnUrl`, for a banner: its frame's origin, the only one that may redeem the code (else `openerOrigin`). */
  readonly frameOrigin?: string;
  /** With analytics on: what its end counts under, the card's poll and tracking values (nothing of the fan). */
  readonly analytics?: { readonly poll?: string | undefined; readonly tracking: TrackingParameters };
  /**
   * With `handoff`, for a card whose page keeps no cookie of the proxy's: the challenge of the verifier its session
   * frame holds (`frame-session-contract.ts`). The code then opens the session only with that verifier.
   */
  readonly frameChallenge?: string;
}

/** A signed-in session waiting to be handed to the card's own cookie partition (`POST /auth/handoff`). */
export interface PendingHandoff {
  readonly sessionId: string;
  /** The card origin that started the sign-in: the only origin that may redeem the code. */
  readonly origin: string;
  /** Bound to a session frame: only `POST /auth/frame-session` with the verifier of this challenge redeems it. */
  readonly challenge?: string;
}

export interface SignedIn {
  readonly userId: string;
  readonly tokens: TokenSet;
  readonly signInOrigin: string;
}

export interface SessionStore {
  /** A signed-in session under a fresh id (an id planted before sign-in is worth nothing: session fixation). */
  create(signedIn: SignedIn): Promise<Session>;
  /** The live session with this id (its idle time starts again, written at most once a minute), or undefined. */
  find(id: string | undefined): Promise<Session | undefined>;
  /** A second id for the same signed-in state (same tokens), for another cookie partition of the same browser. */
  clone(session: Session): Promise<Session>;
  /** Ends the session and every copy of it: their tokens are gone everywhere before this resolves. */
  end(session: Session): Promise<void>;
  /** Keeps a sign-in in progress until its callback, at most `pendingMs`. */
  addPending(pending: PendingSignIn): Promise<void>;
  /** Finds and removes a pending sign-in: a `state` is good for one callback only. */
  takePending(state: string): Promise<PendingSignIn | undefined>;
  /** The card origin of this browser's latest sign-in still in progress: where a callback with a lost state reports. */
  pendingOriginOf(browserId: string | undefined): Promise<string | undefined>;
  /**
   * A fresh single-use code (256 random bits) that hands `sessionId` to a page of `origin`, or with `challenge` to the
   * session frame holding its verifier.
   */
  addHandoff(sessionId: string, origin: string, challenge?: string): Promise<string>;
  /** Finds and removes a handoff: a code is gone after its first use, right or wrong, and after `handoffMs`. */
  takeHandoff(code: string): Promise<PendingHandoff | undefined>;
}

export interface SessionStoreOptions {
  /** A session unused this long is gone. */
  readonly idleMs: number;
  /** A session is gone this long after it was created, used or not. */
  readonly absoluteMs: number;
  /** How long a sign-in may take between login and callback. */
  readonly pendingMs: number;
  /** Sign-ins in progress kept at most (in memory); past it the oldest is dropped (its fan starts again). */
  readonly maxPendingSignIns: number;
  /** How long a handoff code may wait to be redeemed (single use). */
  readonly handoffMs: number;
  /** Sessions kept at most (in memory). */
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

/** Makes the keeper of one session's tokens; `refresh` turns a refresh token into a new pair. */
export type RefreshTokens = (refreshToken: string) => Promise<TokenSet>;

/** 256 random bits, base64url. */
export function randomId(): string {
  return encodeBase64Url(crypto.getRandomValues(new Uint8Array(32)).buffer).replace(/=+$/, '');
}
