import type { BridgePollView } from '../../src/contracts/bridge-contract.ts';
import type { TrackingParameters } from '../../src/contracts/bridge-contract.ts';

/** The fan's own view of a poll: whether they voted, and each answer's `voteStatus`. */
export type FanPollView = Omit<BridgePollView, 'pollId'>;

/**
 * How a card acts for the fan: through the extension when the fan has it, otherwise through the partner proxy's
 * session, or through a channel the host gives the card (`card.channel`; the extension's popup gives one that talks
 * to its background). Methods reject with a `WidgetError`, whose `code` the card turns into what the fan reads.
 */
export interface VoteChannel {
  readonly via: 'extension' | 'popup';
  isSignedIn(): Promise<boolean>;
  /**
   * Must be called straight from a click: the proxy channel opens a popup. Resolves true when signed in. `pollId`: the
   * card's poll, which the proxy counts the sign-in for in the club's analytics.
   */
  signIn(tracking: TrackingParameters, pollId?: string): Promise<boolean>;
  fanView(pollId: string): Promise<FanPollView>;
  /**
   * Casts a vote; resolves with the answer the platform recorded. Through the extension that is the answer the fan
   * confirmed in its window, which may differ from the card's pick; the card shows that one. `tracking`: the card's,
   * which the proxy counts the vote under in the club's analytics.
   */
  vote(pollId: string, answerId: string, tracking?: TrackingParameters): Promise<string>;
}
