import type { TrackingParameters } from '../../src/contracts/bridge-contract.ts';
import type { CardStrings } from '../i18n/strings.ts';
import type { PollView } from '../store/poll-model.ts';
import type { VoteChannel } from '../voting/vote-channel.ts';
import type { FanState } from './fan-action.ts';

/** What the lazily loaded voting part sees of its card, and may change on it. */
export interface VotingHost extends HTMLElement {
  readonly pollId: string;
  readonly proxyUrl: string | undefined;
  /** A channel given by the host page, else the part chooses (extension, else proxy). */
  readonly channel: VoteChannel | undefined;
  readonly tracking: TrackingParameters;
  fan: FanState;
  selected: string | undefined;
  voteError: string | undefined;
  /** Says `text` in the card's polite live region. */
  announce(text: string): void;
  reportError(code: string, error: unknown): void;
  /** Asks the live store for a fresh read of this poll (after a vote). */
  refreshPoll(): void;
  currentView(): PollView | undefined;
  cardStrings(): CardStrings;
}
