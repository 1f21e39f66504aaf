import type { SignInReturn } from '../../src/contracts/sign-in-return.ts';
import { takeFragmentValue, takeSignInReturn } from '../../src/contracts/sign-in-return-fragment.ts';

/** What a sign-in without a pop-up brought back in an address: the marker, and a banner's pick (as written). */
export interface AddressReturn {
  readonly marker: SignInReturn;
  readonly pick: string | undefined;
}

/**
 * The sign-in marker under `key` (`src/contracts/sign-in-return.ts`), and with it the pick under `pickKey`, taken out
 * of this document's address, the rest of the URL and any other fragment kept (`history.replaceState`, the history
 * entry's state kept too), so that no reload, bookmark, shared link or later script sees them. The pick is taken only
 * with a marker: on a banner's host page the pick is its loader's, beside the banner's marker. Used by a card's page
 * and by the banner's host loader.
 */
export function takeReturnFromAddress(key: string, pickKey: string): AddressReturn | undefined {
  const taken = takeSignInReturn(location.hash, key);
  if (!taken) return undefined;
  const pick = takeFragmentValue(taken.rest, pickKey);
  try {
    history.replaceState(history.state, '', location.pathname + location.search + (pick?.rest ?? taken.rest));
  } catch {
    // A document whose history refuses it (an opaque origin): the marker is still used once, and only once.
  }
  return { marker: taken.result, pick: pick?.value };
}
