import { cardEventInit, type FanPollEventDetail } from './event-detail.ts';

export interface FanPollCurrentChangedDetail extends FanPollEventDetail {
  /** The poll the card showed before. */
  readonly previousPollId: string;
  /** The new poll's phase (`upcoming`, `open`, `closed`, `disclosed`). */
  readonly phase: string;
}

/** A `current` card switched by itself to its club's new current poll (`pollId`). */
export class FanPollCurrentChangedEvent extends Event {
  static readonly eventName = 'fan-poll-current-changed';
  readonly detail: FanPollCurrentChangedDetail;

  constructor(detail: FanPollCurrentChangedDetail) {
    super(FanPollCurrentChangedEvent.eventName, cardEventInit);
    this.detail = detail;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'fan-poll-current-changed': FanPollCurrentChangedEvent;
  }
}
