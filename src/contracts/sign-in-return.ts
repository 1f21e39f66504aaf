/**
 * Sign-in without a pop-up (in-app browsers and WebViews that open no window, or a card with `sign-in="redirect"`):
 * the top-level page goes to the proxy's sign-in with a `return` address and comes back to exactly that address with
 * a marker in its URL fragment, which no server sees: the pop-up path's one-time handoff code, or why the sign-in did
 * not finish. Shared by the proxy (which writes the marker), the widget (which takes it out of the address bar and
 * redeems the code) and the banner's host loader (which hands its banner's marker to the banner's frame). The
 * marker's format is in `sign-in-return-fragment.ts`, the keys a card reads in an address in `sign-in-return-key.ts`:
 * each part of the widget's code carries only what it uses.
 */

/** The query parameters `GET /auth/login` takes for this path (see `proxyRoutes.signIn`). */
export const signInReturnParams = {
  /** The page to come back to: an allowed page whose origin is the `origin` parameter. */
  returnTo: 'return',
  /** For a banner: the origin of its frame in that page, the one document that may redeem the code. */
  frame: 'frame',
} as const;

/** The longest `return` address the proxy takes. */
export const returnUrlMaxLength = 2048;

export { cardReturnKey, framePickKey } from './sign-in-return-key.ts';
/**
 * The fragment key of a banner's marker on its host page: the host loader takes it and gives it to its frame under
 * `cardReturnKey` (the page's cards' key, in `sign-in-return-key.ts`), so that the page's own cards never spend a code bound to the frame's origin.
 */
export const frameReturnKey = 'fan-polls-frame-handoff';
/** What a sign-in brings back to the page: a handoff code to redeem, or the OAuth-style code of what went wrong. */
export type SignInReturn = { readonly handoff: string } | { readonly error: string };

/**
 * The `sessionStorage` key of the answer the fan picked before the page left for the sign-in (JSON `SignInPick`):
 * after the return, only the card of the same poll restores it.
 */
export const signInPickKey = 'fan-polls:sign-in-pick';

export interface SignInPick {
  readonly pollId: string;
  readonly answerId: string;
}
