import { cardEventInit, type FanPollEventDetail } from './event-detail.ts';

export interface FanPollSignInDetail extends FanPollEventDetail {
  /** `started` when the sign-in window opens, then `signed-in` or `failed`. */
  readonly stage: 'started' | 'signed-in' | 'failed';
  /** Which way the fan signs in. */
  readonly via: 'extension' | 'popup';
}

/** The fan's sign-in started, succeeded or failed. */
export class FanPollSignInEvent extends Event {
  static readonly eventName = 'fan-poll-sign-in';
  readonly detail: FanPollSignInDetail;

  constructor(detail: FanPollSignInDetail) {
    super(FanPollSignInEvent.eventName, cardEventInit);
    this.detail = detail;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'fan-poll-sign-in': FanPollSignInEvent;
  }
}
