import { cardEventInit, type FanPollEventDetail } from './event-detail.ts';

export interface FanPollShareDetail extends FanPollEventDetail {
  /** The poll's share link on the proxy, with the card's tracking parameters. */
  readonly url: string;
  /** `share-sheet`: the browser's share sheet (Web Share API) took it; `clipboard`: the link was copied. */
  readonly via: 'share-sheet' | 'clipboard';
}

/** The fan shared the poll from the card: through the browser's share sheet, or by copying its link. */
export class FanPollShareEvent extends Event {
  static readonly eventName = 'fan-poll-share';
  readonly detail: FanPollShareDetail;

  constructor(detail: FanPollShareDetail) {
    super(FanPollShareEvent.eventName, cardEventInit);
    this.detail = detail;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'fan-poll-share': FanPollShareEvent;
  }
}
