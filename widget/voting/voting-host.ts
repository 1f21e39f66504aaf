import type { ReactiveControllerHost } from 'lit';
import type { TrackingParameters } from '../../src/contracts/bridge-contract.ts';
import type { FanPollErrorCode } from '../events/fan-poll-error-code.ts';
import type { VoteChannel } from './vote-channel.ts';

/** What the voting reads of its card: the card's public API. */
export interface VotingCard extends HTMLElement, ReactiveControllerHost {
  readonly pollId: string;
  readonly proxyUrl: string | undefined;
  /** A channel given by the host page, else the voting chooses (extension, else proxy). */
  readonly channel: VoteChannel | undefined;
  readonly tracking: TrackingParameters;
  /** In a frame: the top-level page's address a sign-in without a pop-up comes back to (`FanPoll.signInPage`). */
  readonly signInPage?: string | undefined;
}

/** What the card lends its voting of its own, private state and behaviour. */
export interface VotingHooks {
  /** Says "You voted for …" in the card's polite live region (with the details chunk's words). */
  announceVote(answerId: string): void;
  reportError(code: FanPollErrorCode, error: unknown): void;
  /** Asks the live store for a fresh read of this poll (after a vote). */
  refreshPoll(): void;
}
