import { cardEventInit, type FanPollEventDetail } from './event-detail.ts';

export interface FanPollSignInDetail extends FanPollEventDetail {
  /**
   * `started` when the sign-in window opens (or the page leaves for the sign-in), then `signed-in` or `failed` (after
   * the page came back, for `redirect`).
   */
  readonly stage: 'started' | 'signed-in' | 'failed';
  /** Which way the fan signs in: the extension, the proxy's pop-up, or the page's own trip to the proxy and back. */
  readonly via: 'extension' | 'popup' | 'redirect';
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
