import { enDetails } from './en-details.ts';
import type { CardStrings, DetailStrings } from './strings.ts';

/** The details chunk's words in the card's language: a language chunk carries them, English's come with the chunk. */
export function detailWords(strings: CardStrings): DetailStrings {
  return { ...enDetails, ...strings };
}

/** The words a failed sign-in, vote or sign-out leaves under the button. */
export type ActionErrorKey =
  | 'chooseAnswer'
  | 'voteCancelled'
  | 'errorVote'
  | 'alreadyVoted'
  | 'voteRefused'
  | 'signInCancelled'
  | 'signInFailed'
  | 'votingUnavailable'
  | 'signInHere'
  | 'popupBlocked'
  | 'cookiesBlocked'
  | 'cookiesAsk'
  | 'cookiesFrame'
  | 'signOutFailed';
