import { cardEventInit, type FanPollEventDetail } from './event-detail.ts';

export interface FanPollVoteDetail extends FanPollEventDetail {
  readonly answerId: string;
}

/** The fan asked to vote for an answer; the vote is on its way. */
export class FanPollVoteEvent extends Event {
  static readonly eventName = 'fan-poll-vote';
  readonly detail: FanPollVoteDetail;

  constructor(detail: FanPollVoteDetail) {
    super(FanPollVoteEvent.eventName, cardEventInit);
    this.detail = detail;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'fan-poll-vote': FanPollVoteEvent;
  }
}
