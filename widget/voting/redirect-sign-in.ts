/**
 * A sign-in without a pop-up, the way out: the fan's pick saved for the trip, then the top-level page sent to the
 * proxy's sign-in with its own address as the way back (`return`, query included), its origin, the card's poll and
 * tracking parameters (as from the pop-up: `sign-in-params.ts`), and for a card in the banner's frame that
 * frame's origin (`frame`: the one document that may redeem the code). Its own chunk, imported as soon as the card
 * offers this way, so that the fan's click navigates at once (within its user activation, which a frame needs).
 */
import type { TrackingParameters } from '../../src/contracts/tracking.ts';
import { signInPath } from '../../src/contracts/proxy-paths.ts';
import {
  returnUrlMaxLength,
  signInReturnParams,
  type SignInPick,
} from '../../src/contracts/sign-in-return.ts';
import { appendCardOfSignIn } from './sign-in-params.ts';
import { saveSignInPick } from './sign-in-pick.ts';

export interface SignInTrip {
  readonly proxyUrl: string;
  /** The card's poll, which the proxy counts the sign-in for. */
  readonly pollId: string;
  /** The answer the fan picked on the page, saved for the trip and shown again by the same poll's card after it. */
  readonly pick: SignInPick | undefined;
  readonly tracking: TrackingParameters;
  /**
   * For a card in a frame: the way back, the top-level page's address its host loader told it (`FanPoll.signInPage`),
   * with the fan's pick in it (`framePickKey`).
   */
  readonly framePage: string | undefined;
}

/** The proxy's sign-in address for `trip`. */
export function signInTripUrl(trip: SignInTrip): string {
  const page = wayBack(trip.framePage ?? location.href);
  const params = new URLSearchParams({ origin: new URL(page).origin, [signInReturnParams.returnTo]: page });
  if (trip.framePage !== undefined) params.set(signInReturnParams.frame, location.origin);
  appendCardOfSignIn(params, trip.tracking, trip.pollId);
  return `${trip.proxyUrl}${signInPath}?${params.toString()}`;
}

/** The page's address, or without its query and fragment where it is longer than the proxy takes. */
function wayBack(page: string): string {
  return page.length <= returnUrlMaxLength ? page : page.replace(/[?#].*$/, '');
}

/**
 * Leaves for the sign-in. `onBack` runs when the fan comes back with the browser's Back button to this page as it was
 * (the back-forward cache), so that the card offers the sign-in again.
 */
export function leaveForSignIn(trip: SignInTrip, onBack: () => void): void {
  if (trip.pick) saveSignInPick(trip.pick);
  window.addEventListener(
    'pageshow',
    (event) => {
      if (event.persisted) onBack();
    },
    { once: true },
  );
  const url = signInTripUrl(trip);
  if (trip.framePage === undefined || !window.top) location.assign(url);
  // From the banner's frame, with the fan's click: browsers let a cross-origin frame navigate the top-level page only
  // with user activation (the loader's iframe has no `sandbox`; one would need `allow-top-navigation-by-user-activation`),
  // and setting `href` is the one navigation a cross-origin frame may start there.
  else window.top.location.href = url;
}
