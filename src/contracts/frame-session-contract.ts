/**
 * The session a frame of the proxy's origin holds in its own memory, for a card whose page is on another site where
 * the browser keeps no cookie of the proxy's (`widget/iframe/session-frame.ts`, `widget/voting/frame-session-host.ts`).
 * The frame makes a random verifier; the sign-in carries its SHA-256 challenge; only the verifier redeems the code the
 * sign-in ends with, and the answer's credential never leaves the frame. Facts the proxy, the frame and the card share.
 */

/** POST `FrameSessionRedeem` from the proxy's own origin with the CSRF header -> `FrameSessionGrant`. */
export const frameSessionPath = '/auth/frame-session';

/** The frame's page, under the widget's files. */
export const frameSessionPagePath = '/widget/embed/session.html';

/** The sign-in's query parameter (with `handoff=1`) carrying the frame's challenge. */
export const frameChallengeParam = 'frame_challenge';

/** The header of the frame's requests carrying its credential; the proxy takes it from its own origin only. */
export const frameSessionHeaderName = 'X-Fan-Polls-Frame-Session';

/** A verifier or challenge: 32 bytes (256 bits), base64url without padding. */
export const frameKeyPattern = /^[A-Za-z0-9_-]{43}$/;

export interface FrameSessionRedeem {
  readonly handoff: string;
  readonly verifier: string;
}

/** What the frame keeps: `credential` only in its memory, sent back as `frameSessionHeaderName`. */
export interface FrameSessionGrant {
  readonly signedIn: true;
  readonly userId: string;
  readonly credential: string;
}

function base64Url(bytes: ArrayBuffer | Uint8Array): string {
  let text = '';
  for (const byte of new Uint8Array(bytes)) text += String.fromCharCode(byte);
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** A fresh verifier (256 random bits). */
export function frameVerifier(): string {
  return base64Url(crypto.getRandomValues(new Uint8Array(32)));
}

/** The challenge of `verifier`: base64url(SHA-256(verifier)), as PKCE's S256. */
export async function frameChallengeOf(verifier: string): Promise<string> {
  return base64Url(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier)));
}
