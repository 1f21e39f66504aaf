import { cardEventInit, type FanPollEventDetail } from './event-detail.ts';

export interface FanPollNextDetail extends FanPollEventDetail {
  /** Which of the partner's links: `next` (`next-href`), `get-tokens` (`get-tokens-href`) or `verify` (`verify-href`). */
  readonly link: 'next' | 'get-tokens' | 'verify';
  /** Where it goes, as the card rendered it (`next-href` with the tracking parameters, `verify-href` filled in). */
  readonly href: string;
}

/** The fan followed one of the partner's links on the card: the next step, getting tokens, or checking the result. */
export class FanPollNextEvent extends Event {
  static readonly eventName = 'fan-poll-next';
  readonly detail: FanPollNextDetail;

  constructor(detail: FanPollNextDetail) {
    super(FanPollNextEvent.eventName, cardEventInit);
    this.detail = detail;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'fan-poll-next': FanPollNextEvent;
  }
}
