/**
 * The voting of a `<fan-poll>`, as a Lit reactive controller: started after the card's first paint once its poll is
 * open (or a host gave it a channel), it finds how the fan votes (extension, else the proxy's sign-in popup), signs in,
 * votes once, and follows the vote's `voteStatus`. Through the proxy it follows the page's session while the card is
 * on the page (subscribed in `hostConnected`, unsubscribed in `hostDisconnected`), so a removed card is let go, and
 * every card follows the page's fan votes (`fan-votes.ts`): a vote cast in one card of a poll shows in all of them.
 * What runs once the voting started lives in the card's details chunk (`voting/fan-acts.ts`): this class holds the
 * state a first paint reads and hands the work over.
 */
import type { ReactiveController } from 'lit';
import { cardDetails, type CardDetails } from '../fan-poll/details-part.ts';
import type { ActionAreaSource } from '../fan-poll/action-area.ts';
import { unknownFan, type FanState } from '../voting/fan-action.ts';
import type { VotingCard, VotingHooks } from '../voting/voting-host.ts';
import type { ActionErrorKey } from '../i18n/detail-words.ts';
import type { PageSession } from '../session/page-session.ts';
import { chooseVoteChannel } from '../voting/choose-channel.ts';
import type { VoteChannel } from '../voting/vote-channel.ts';
import type { RunPatch, VotingRun, VotingSteps } from '../voting/voting-run.ts';

export class FanVoteController implements ReactiveController, ActionAreaSource {
  #run: VotingRun | undefined;
  /** Undoes what the run follows while the card is on the page (the page's session, the page's fan votes). */
  #unfollow: (() => void) | undefined;

  readonly #host: VotingCard;
  readonly #hooks: VotingHooks;
  /** What the voting's work (in the details chunk) uses of this controller. */
  readonly #steps: VotingSteps;

  constructor(host: VotingCard, hooks: VotingHooks) {
    this.#host = host;
    this.#hooks = hooks;
    this.#steps = {
      host,
      hooks,
      current: (run) => this.#run === run && host.pollId === run.pollId && host.isConnected,
      change: (run, patch) => {
        this.#change(run, patch);
      },
      follow: (run, unfollow) => {
        if (this.#unfollow || !this.#steps.current(run)) return false;
        this.#unfollow = unfollow();
        return true;
      },
    };
    host.addController(this);
  }

  /** The fan's session and vote (unknown before the voting started). */
  get fan(): FanState {
    return this.#run?.fan ?? unknownFan;
  }

  /** The voting of the card's current poll has started. */
  get started(): boolean {
    return this.#run?.pollId === this.#host.pollId;
  }

  /** A sign-in or a vote is under way: the card's button takes no click. */
  get busy(): boolean {
    return this.#run?.busy === true;
  }

  /** The answer the fan picked. */
  get selected(): string | undefined {
    return this.#run?.selected;
  }

  /** The page's session the card follows, when it votes through the proxy. */
  get session(): PageSession | undefined {
    return this.#run?.session;
  }

  /** The error of the fan's last action, as a key of the details' words. */
  get voteError(): ActionErrorKey | undefined {
    return this.#run?.voteError;
  }

  /**
   * How the card votes now (before the extension's handshake answered: the proxy's channel, usable from a click, once
   * the details chunk is here; none before).
   */
  get channel(): VoteChannel | undefined {
    return (
      this.#host.channel ?? this.#run?.channel ?? cardDetails.get()?.proxyVoteChannel(this.#host.proxyUrl)
    );
  }

  hostConnected(): void {
    // Back on the page: it follows again; a voting that had not found the fan starts again (`start`).
    const run = this.#run;
    if (run)
      this.#withDetails((details) => {
        details.followPage(this.#steps, run);
      });
    else this.#host.requestUpdate();
  }

  hostDisconnected(): void {
    this.#stopFollowing();
    if (!this.#run?.session) this.#run = undefined;
  }

  /** Another poll id or channel: the fan's session and vote are found again (at the next `start`). */
  reset(): void {
    this.#stopFollowing();
    this.#run = undefined;
  }

  /** Starts the voting of the card's poll, once: finds how the fan votes and whether they are signed in (and voted). */
  start(): void {
    if (this.started) return;
    this.reset();
    const run: VotingRun = { pollId: this.#host.pollId, fan: unknownFan, busy: false };
    this.#run = run;
    // The extension's handshake starts now, beside the details chunk's import.
    const channel = this.#host.channel
      ? Promise.resolve(this.#host.channel)
      : chooseVoteChannel(async () => (await cardDetails.load()).proxyVoteChannel(this.#host.proxyUrl));
    channel.catch(() => undefined);
    this.#withDetails(
      (details) => details.loadFan(this.#steps, run, channel),
      () => {
        if (this.#steps.current(run)) this.#change(run, { fan: { ...run.fan, session: 'signed-out' } });
      },
    );
  }

  /**
   * The fan picked an answer. The voting starts now if it has not yet (a pick before the first paint's frame, or on a
   * drawn card before it was live, given back by `ssr/early-taps.ts`), so that the pick is never dropped.
   */
  select(answerId: string): void {
    this.start();
    if (this.#run) this.#change(this.#run, { selected: answerId });
  }

  /**
   * The fan pressed the action button: sign in, or vote for the selected answer. A press before the voting started
   * (in the frame between the card's first render and its paint) starts it, and counts.
   */
  act(kind: 'sign-in' | 'vote'): void {
    this.start();
    const run = this.#run;
    if (!run || run.busy || run.fan.vote) return;
    this.#act(run, kind);
  }

  /** A new sign-in in the proxy's popup; the proxy ends the previous fan's session once it succeeds (from a click). */
  readonly switchAccount = (): void => {
    const run = this.#run;
    if (run && !run.busy) this.#act(run, 'sign-in');
  };

  readonly signOutFailed = (error: unknown): void => {
    if (this.#run) this.#change(this.#run, { voteError: 'signOutFailed' });
    this.#hooks.reportError('sign-out-failed', error);
  };

  /** Straight from the click when the details chunk is here (it is, once the voting started): a popup needs that. */
  #act(run: VotingRun, kind: 'sign-in' | 'vote'): void {
    this.#withDetails((details) => {
      const channel = this.channel;
      if (channel && !run.busy && !run.fan.vote)
        (kind === 'sign-in' ? details.signIn : details.vote)(this.#steps, run, channel);
    });
  }

  /** Runs `work` with the details chunk: at once when it is here, else once it arrives. */
  #withDetails(work: (details: CardDetails) => unknown, failed: () => void = () => undefined): void {
    const details = cardDetails.get();
    if (details) work(details);
    else void cardDetails.load().then(work, failed);
  }

  /** Every change of the fan's state renders the card (batched by Lit into one update). */
  #change(run: VotingRun, patch: RunPatch): void {
    Object.assign(run, patch);
    if (this.#run === run) this.#host.requestUpdate();
  }

  #stopFollowing(): void {
    this.#unfollow?.();
    this.#unfollow = undefined;
  }
}
