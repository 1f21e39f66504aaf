import { cardEventInit, type FanPollEventDetail } from './event-detail.ts';
import type { FanPollErrorCode } from './fan-poll-error-code.ts';

export interface FanPollErrorDetail extends FanPollEventDetail {
  /** A stable code (`load-failed`, `vote-failed`, `sign-in-failed`, ...): a key of `fanPollErrorCodes`. */
  readonly code: FanPollErrorCode;
  readonly message: string;
}

/** Something went wrong in the card; it shows the error itself, this event is for the page's own logging. */
export class FanPollErrorEvent extends Event {
  static readonly eventName = 'fan-poll-error';
  readonly detail: FanPollErrorDetail;

  constructor(detail: FanPollErrorDetail) {
    super(FanPollErrorEvent.eventName, cardEventInit);
    this.detail = detail;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'fan-poll-error': FanPollErrorEvent;
  }
}
