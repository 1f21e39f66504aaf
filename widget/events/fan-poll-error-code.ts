import type { WidgetErrorCode } from '../voting/widget-error.ts';

/** Every `code` a `fan-poll-error` event carries: the card's and the list's (explained in `fanPollErrorCodes`). */
export type FanPollErrorCode =
  | WidgetErrorCode
  | 'origin-not-allowed'
  | 'sign-out-failed'
  | 'render-failed'
  | 'list-failed'
  | 'unknown-partner';
