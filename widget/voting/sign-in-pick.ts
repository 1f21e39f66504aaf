/**
 * The answer the fan picked before the page left for a sign-in without a pop-up, kept for the trip so that the card
 * of the same poll shows it again after the return (and never votes with it by itself): in `sessionStorage` (this tab
 * only), every access wrapped, as storage can throw (disabled, full, a third-party frame where it is blocked). A
 * banner's pick travels in its way back instead (`framePickKey`), read here too.
 */
import { isRecord } from '../../src/contracts/is-record.ts';
import { signInPickKey, type SignInPick } from '../../src/contracts/sign-in-return.ts';
import { isShortString } from '../messages/shape.ts';

export function saveSignInPick(pick: SignInPick): void {
  try {
    sessionStorage.setItem(signInPickKey, JSON.stringify(pick));
  } catch {
    // No storage: the fan picks again after the return.
  }
}

/** The saved pick, taken out of storage (whoever it was for), when it has its shape. */
export function takeSignInPick(): SignInPick | undefined {
  try {
    const saved = sessionStorage.getItem(signInPickKey);
    sessionStorage.removeItem(signInPickKey);
    return readSignInPick(saved);
  } catch {
    return undefined;
  }
}

/** A pick written as JSON (`saveSignInPick`, or a banner's way back), when it has its shape. */
export function readSignInPick(written: string | null | undefined): SignInPick | undefined {
  try {
    const pick: unknown = written ? JSON.parse(written) : undefined;
    return isRecord(pick) && isShortString(pick.pollId) && isShortString(pick.answerId)
      ? { pollId: pick.pollId, answerId: pick.answerId }
      : undefined;
  } catch {
    return undefined;
  }
}
