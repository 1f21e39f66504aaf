import type { FanState } from './fan-action.ts';
import type { VotingCard, VotingHooks } from './voting-host.ts';
import type { ActionErrorKey } from '../i18n/detail-words.ts';
import type { PageSession } from '../session/page-session.ts';
import type { VoteChannel } from './vote-channel.ts';

/** The voting of one poll id: a new poll id (or channel) starts a new run, so late answers never cross polls. */
export interface VotingRun {
  readonly pollId: string;
  fan: FanState;
  selected?: string | undefined;
  voteError?: ActionErrorKey | undefined;
  /** The channel the run found (the host's, the extension, or the proxy's). */
  channel?: VoteChannel | undefined;
  /** The page's session with the proxy, when the card votes through it (not the extension, not a host's channel). */
  session?: PageSession | undefined;
  signedInUser?: string | undefined;
  /**
   * How many times the page's session moved (signed in, out, or as another fan) for this run: what follows the fan
   * (the vote's confirmation) stops once it moved, and never reads for a fan who signed out meanwhile. Counted from
   * the first move (none: 0), in the details chunk, not in the first paint's.
   */
  sessionMoves?: number;
  /** A vote heard from another document and not confirmed yet by reading the fan's poll (`fan.vote` meanwhile). */
  hinted?: FanState['vote'];
  /**
   * One action at a time: a second (or double) click while signing in or voting does nothing, so the card's button
   * shows inactive meanwhile (the page's session may say the fan is signed in before the card's sign-in has ended).
   */
  busy: boolean;
}

export type RunPatch = Partial<Pick<VotingRun, 'fan' | 'selected' | 'voteError' | 'busy'>>;

/** What the fan's actions (`fan-acts.ts`, in the details chunk) use of the card's voting controller. */
export interface VotingSteps {
  readonly host: VotingCard;
  readonly hooks: VotingHooks;
  /** Whether `run` is still the card's voting and the card is on the page. */
  current(run: VotingRun): boolean;
  /** Patches the run and renders the card. */
  change(run: VotingRun, patch: RunPatch): void;
  /**
   * Starts following the page for `run` while the card is on the page: `subscribe` is called (and its undo kept)
   * only when the run is current and follows nothing yet. True when it was called.
   */
  follow(run: VotingRun, subscribe: () => () => void): boolean;
}
