/**
 * Why the platform refused a vote, as the stable reason of the proxy and bridge contracts. The platform does not
 * publish what it answers to a non-holder, a second vote or a closed poll; the statuses below are the sandbox's
 * documented choices (`src/sandbox/choices.ts`, `voteRefusals`), kept in this one place so that a correction to the
 * real platform's answers is one edit. An unmapped status gives no reason: a card shows a plain refusal.
 */
import type { VoteRefusalReason } from '../contracts/proxy-contract.ts';
import { PlatformError } from './errors.ts';

const reasonByStatus: ReadonlyMap<number, VoteRefusalReason> = new Map([
  [403, 'not_holder'],
  [409, 'already_voted'],
  [422, 'poll_not_open'],
  [400, 'unknown_answer'],
  [404, 'unknown_poll'],
]);

/** The reason of a `vote_refused` PlatformError, from its HTTP status; undefined for anything else. */
export function voteRefusalReason(error: unknown): VoteRefusalReason | undefined {
  if (!(error instanceof PlatformError) || error.code !== 'vote_refused' || error.status === undefined) {
    return undefined;
  }
  return reasonByStatus.get(error.status);
}

/** What to tell the fan, one sentence a reason (and one for a refusal with no reason). */
export const voteRefusalMessages: Readonly<Record<VoteRefusalReason | 'unknown', string>> = {
  not_holder: 'Only holders of this club’s fan tokens can vote in this poll.',
  already_voted: 'You have already voted in this poll.',
  poll_not_open: 'This poll is not open for votes.',
  unknown_answer: 'This answer is not part of the poll.',
  unknown_poll: 'This poll does not exist.',
  unknown: 'The platform did not accept this vote.',
};
