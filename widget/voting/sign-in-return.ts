/**
 * What a sign-in without a pop-up brought back to this page: the marker in the URL fragment (and, in a banner's frame,
 * the fan's pick), taken out of the address bar as this module loads (`address-return.ts`) and kept in this module's
 * memory only, never stored, for the one card that redeems it. In the details chunk, which the element code fetches
 * at once when the address may hold a marker (`page-widget.ts`), and which every voting card loads anyway.
 */
import { cardReturnKey, framePickKey } from '../../src/contracts/sign-in-return-key.ts';
import { takeReturnFromAddress, type AddressReturn } from './address-return.ts';

// A server render (Lit SSR) has no address.
let back: AddressReturn | undefined =
  typeof location === 'undefined' ? undefined : takeReturnFromAddress(cardReturnKey, framePickKey);
/** This page came back from a sign-in without a pop-up (whether or not a card claimed its marker yet). */
const cameBack = back !== undefined;

export function cameBackFromSignIn(): boolean {
  return cameBack;
}

/** What the page brought back, to the first caller only. */
export function claimSignInReturn(): AddressReturn | undefined {
  const claimed = back;
  back = undefined;
  return claimed;
}
