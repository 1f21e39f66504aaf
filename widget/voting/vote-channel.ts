import type { BridgePollView } from '../../src/contracts/bridge-contract.ts';
import type { TrackingParameters } from '../../src/contracts/bridge-contract.ts';

/** The fan's own view of a poll: whether they voted, and each answer's `voteStatus`. */
export type FanPollView = Omit<BridgePollView, 'pollId'>;

/**
 * How a card acts for the fan: through the extension when the fan has it, otherwise through the partner proxy's
 * session. Methods reject with a `WidgetError`.
 */
export interface VoteChannel {
  readonly via: 'extension' | 'popup';
  isSignedIn(): Promise<boolean>;
  /** Must be called straight from a click: the proxy channel opens a popup. Resolves true when signed in. */
  signIn(tracking: TrackingParameters): Promise<boolean>;
  fanView(pollId: string): Promise<FanPollView>;
  vote(pollId: string, answerId: string): Promise<void>;
}
