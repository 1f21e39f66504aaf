import { cardEventInit, type FanPollEventDetail } from './event-detail.ts';

export interface FanPollVotedDetail extends FanPollEventDetail {
  readonly answerId: string;
  /** The platform's `voteStatus` when known (`pending`, `accepted`, `rejected`, or another value). */
  readonly voteStatus?: string;
}

/** The platform accepted the fan's vote. */
export class FanPollVotedEvent extends Event {
  static readonly eventName = 'fan-poll-voted';
  readonly detail: FanPollVotedDetail;

  constructor(detail: FanPollVotedDetail) {
    super(FanPollVotedEvent.eventName, cardEventInit);
    this.detail = detail;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'fan-poll-voted': FanPollVotedEvent;
  }
}
