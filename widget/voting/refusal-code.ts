import { isVoteRefusalReason } from '../../src/contracts/proxy-contract.ts';
import type { WidgetErrorCode } from './widget-error.ts';

/**
 * The card's code for a refused vote, from the `reason` of the proxy's `vote_refused` or the bridge's `refused`
 * error. An absent or unknown reason (an older proxy or extension, or one added later) is a plain refusal.
 */
export function refusalCode(reason: unknown): WidgetErrorCode {
  if (!isVoteRefusalReason(reason)) return 'vote-refused';
  switch (reason) {
    case 'not_holder':
      return 'not-holder';
    case 'already_voted':
      return 'already-voted';
    case 'poll_not_open':
      return 'poll-closed';
    default:
      return 'vote-refused';
  }
}
