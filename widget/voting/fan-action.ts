import type { PollView } from '../store/poll-model.ts';

/** What the fan can do on a card, derived from the poll's phase and the fan's session and vote. */
export type FanAction =
  | { readonly kind: 'none' }
  | { readonly kind: 'closed' }
  | { readonly kind: 'sign-in' }
  | { readonly kind: 'signing-in' }
  | { readonly kind: 'not-holder' }
  /** Signed in, the fan's vote here not read yet: no **Vote** before the card knows whether they voted. */
  | { readonly kind: 'checking' }
  | { readonly kind: 'vote' }
  | { readonly kind: 'voting' }
  | { readonly kind: 'voted'; readonly answerId: string; readonly voteStatus?: string }
  | { readonly kind: 'rejected'; readonly answerId: string };

export interface FanState {
  readonly session: 'unknown' | 'signed-out' | 'signing-in' | 'signed-in';
  readonly voting: boolean;
  readonly notHolder: boolean;
  /** The platform refused a vote because the poll is not open, though the card's clock still says it is. */
  readonly pollClosed: boolean;
  readonly vote?: { readonly answerId: string; readonly voteStatus?: string };
  /** The fan's vote here was read (or could not be): until then a signed-in card offers no vote. */
  readonly voteKnown?: boolean;
  /**
   * The card signs the fan in by sending the top-level page to the sign-in and back ("Continue to sign in"), not in a
   * pop-up: the card has `sign-in="redirect"`, or this browser opened no sign-in window.
   */
  readonly redirectSignIn?: boolean;
}

/** Before the voting found the fan. */
export const unknownFan: FanState = {
  session: 'unknown',
  voting: false,
  notHolder: false,
  pollClosed: false,
};

export function fanAction(view: PollView, fan: FanState): FanAction {
  if (fan.vote) {
    return fan.vote.voteStatus === 'rejected'
      ? { kind: 'rejected', answerId: fan.vote.answerId }
      : { kind: 'voted', ...fan.vote };
  }
  if (view.phase === 'closed' || view.phase === 'disclosed' || fan.pollClosed) return { kind: 'closed' };
  if (view.phase !== 'open') return { kind: 'none' };
  if (fan.notHolder) return { kind: 'not-holder' };
  if (fan.voting) return { kind: 'voting' };
  if (fan.session === 'signing-in') return { kind: 'signing-in' };
  if (fan.session !== 'signed-in') return { kind: 'sign-in' };
  return fan.voteKnown ? { kind: 'vote' } : { kind: 'checking' };
}
