import type { VoteRefusalReason } from '../../src/contracts/proxy-contract.ts';
import type { WidgetErrorCode } from './widget-error.ts';

/** The reasons the card tells apart; every other one reads as a plain refusal. */
const codeOfReason = new Map<unknown, WidgetErrorCode>([
  ['not_holder', 'not-holder'],
  ['already_voted', 'already-voted'],
  ['poll_not_open', 'poll-closed'],
] satisfies [VoteRefusalReason, WidgetErrorCode][]);

/**
 * The card's code for a refused vote, from the `reason` of the proxy's `vote_refused` or the bridge's `refused`
 * error. An absent or unknown reason (an older proxy or extension, or one added later) is a plain refusal.
 */
export function refusalCode(reason: unknown): WidgetErrorCode {
  return codeOfReason.get(reason) ?? 'vote-refused';
}
