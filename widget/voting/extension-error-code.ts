import { refusalCode } from './refusal-code.ts';
import type { WidgetErrorCode } from './widget-error.ts';

/**
 * The card's code for an error of the extension (its `extensionErrorCodes`), the same over the page bridge and over
 * the extension's own messages (its popup); codes are matched exactly, and anything else is a failed vote.
 */
export function extensionErrorCode(code: unknown, reason: unknown): WidgetErrorCode {
  switch (code) {
    case 'refused':
      return refusalCode(reason);
    case 'signed_out':
    case 'invalid_grant':
      return 'sign-in-required';
    case 'vote_cancelled':
      return 'vote-cancelled';
    case 'sign_in_failed':
    case 'access_denied':
      return 'sign-in-failed';
    default:
      return 'vote-failed';
  }
}
