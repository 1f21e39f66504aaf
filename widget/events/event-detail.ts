import type { TrackingParameters } from '../../src/contracts/bridge-contract.ts';

/** What every card event carries: which poll, and the card's tracking parameters. */
export interface FanPollEventDetail {
  readonly pollId: string;
  readonly tracking: TrackingParameters;
}

/** Every card event crosses shadow roots (composed) and bubbles to the host page. */
export const cardEventInit: EventInit = { bubbles: true, composed: true };
