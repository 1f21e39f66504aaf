import { cardEventInit, type FanPollEventDetail } from './event-detail.ts';

export interface FanPollReadyDetail extends FanPollEventDetail {
  readonly phase: string;
}

/** The card shows its poll's data for the first time. */
export class FanPollReadyEvent extends Event {
  static readonly eventName = 'fan-poll-ready';
  readonly detail: FanPollReadyDetail;

  constructor(detail: FanPollReadyDetail) {
    super(FanPollReadyEvent.eventName, cardEventInit);
    this.detail = detail;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'fan-poll-ready': FanPollReadyEvent;
  }
}
