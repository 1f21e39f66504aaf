/**
 * The voting of a `<fan-poll>`, as a Lit reactive controller: started by the card's `willUpdate` once its poll is open
 * (or a host gave it a channel), it finds how the fan votes (extension, else the proxy's sign-in popup), signs in,
 * votes once, and follows the vote's `voteStatus`. Through the proxy it follows the page's session while the card is
 * on the page (subscribed in `hostConnected`, unsubscribed in `hostDisconnected`), so a removed card is let go.
 */
import type { ReactiveController } from 'lit';
import { FanPollSignInEvent } from '../events/fan-poll-sign-in-event.ts';
import { FanPollVoteEvent } from '../events/fan-poll-vote-event.ts';
import { FanPollVotedEvent } from '../events/fan-poll-voted-event.ts';
import { cardDetails } from '../fan-poll/details-part.ts';
import type { ActionAreaSource } from '../fan-poll/action-area.ts';
import { unknownFan, type FanState } from '../fan-poll/fan-action.ts';
import type { VotingCard, VotingHooks } from '../fan-poll/voting-host.ts';
import type { ActionErrorKey } from '../i18n/detail-words.ts';
import type { FanSession, PageSession } from '../session/page-session.ts';
import { chooseVoteChannel, proxyVoteChannel } from '../voting/choose-channel.ts';
import type { FanPollView, VoteChannel } from '../voting/vote-channel.ts';
import { WidgetError } from '../voting/widget-error.ts';

/** The voting of one poll id: a new poll id (or channel) starts a new run, so late answers never cross polls. */
interface VotingRun {
  readonly pollId: string;
  fan: FanState;
  selected?: string | undefined;
  voteError?: ActionErrorKey | undefined;
  /** The channel the run found (the host's, the extension, or the proxy's). */
  channel?: VoteChannel | undefined;
  /** The page's session with the proxy, when the card votes through it (not the extension, not a host's channel). */
  session?: PageSession | undefined;
  signedInUser?: string | undefined;
  /** One action at a time: a second (or double) click while signing in or voting does nothing. */
  busy: boolean;
}

type RunPatch = Partial<Pick<VotingRun, 'fan' | 'selected' | 'voteError'>>;

export class FanVoteController implements ReactiveController, ActionAreaSource {
  #run: VotingRun | undefined;
  #unsubscribe: (() => void) | undefined;

  readonly #host: VotingCard;
  readonly #hooks: VotingHooks;

  constructor(host: VotingCard, hooks: VotingHooks) {
    this.#host = host;
    this.#hooks = hooks;
    host.addController(this);
  }

  /** The fan's session and vote (unknown before the voting started). */
  get fan(): FanState {
    return this.#run?.fan ?? unknownFan;
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

  /** How the card votes now (before the extension's handshake answered: the proxy's channel, usable from a click). */
  get channel(): VoteChannel | undefined {
    return this.#host.channel ?? this.#run?.channel ?? proxyVoteChannel(this.#host.proxyUrl);
  }

  hostConnected(): void {
    // Back on the page: it follows the session again; a voting that had not found the fan starts again (`start`).
    if (this.#run) this.#follow(this.#run);
    else this.#host.requestUpdate();
  }

  hostDisconnected(): void {
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
    if (!this.#run?.session) this.#run = undefined;
  }

  /** Another poll id or channel: the fan's session and vote are found again (at the next `start`). */
  reset(): void {
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
    this.#run = undefined;
  }

  /** Starts the voting of the card's poll, once: finds how the fan votes and whether they are signed in (and voted). */
  start(): void {
    if (this.#run?.pollId === this.#host.pollId) return;
    this.reset();
    const run: VotingRun = {
      pollId: this.#host.pollId,
      fan: unknownFan,
      busy: false,
    };
    this.#run = run;
    this.#loadFan(run);
  }

  select(answerId: string): void {
    if (this.#run) this.#change(this.#run, { selected: answerId });
  }

  /** The fan pressed the action button: sign in, or vote for the selected answer. */
  act(kind: 'sign-in' | 'vote'): void {
    const run = this.#run;
    if (!run || run.busy || run.fan.vote) return;
    const channel = this.channel;
    if (!channel) return;
    if (kind === 'sign-in') this.#signIn(run, channel);
    else this.#vote(run, channel);
  }

  /** A new sign-in in the proxy's popup; the proxy ends the previous fan's session once it succeeds (from a click). */
  readonly switchAccount = (): void => {
    const run = this.#run;
    const channel = this.channel;
    if (run && !run.busy && channel) this.#signIn(run, channel);
  };

  readonly signOutFailed = (error: unknown): void => {
    if (this.#run) this.#change(this.#run, { voteError: 'signOutFailed' });
    this.#hooks.reportError('sign-out-failed', error);
  };

  /** Whether `run` is still the card's voting and the card is on the page: late answers are dropped otherwise. */
  #current(run: VotingRun): boolean {
    return this.#run === run && this.#host.pollId === run.pollId && this.#host.isConnected;
  }

  /** Every change of the fan's state renders the card (batched by Lit into one update). */
  #change(run: VotingRun, patch: RunPatch): void {
    Object.assign(run, patch);
    if (this.#run === run) this.#host.requestUpdate();
  }

  #setFan(run: VotingRun, patch: Partial<FanState>): void {
    this.#change(run, { fan: { ...run.fan, ...patch } });
  }

  #detail(run: VotingRun) {
    return { pollId: run.pollId, tracking: this.#host.tracking };
  }

  /** Subscribes the card to the page's session while it is on the page. */
  #follow(run: VotingRun): void {
    if (!run.session || this.#unsubscribe || !this.#current(run)) return;
    this.#unsubscribe = run.session.subscribe((next) => {
      this.#followSession(run, next);
    });
  }

  #loadFan(run: VotingRun): void {
    void (async () => {
      try {
        const details = cardDetails.load().catch(() => undefined);
        const channel = this.#host.channel ?? (await chooseVoteChannel(this.#host.proxyUrl));
        run.channel = channel;
        if (!channel || !this.#current(run)) return;
        if (channel.via === 'popup' && !this.#host.channel && this.#host.proxyUrl) {
          run.session = (await details)?.pageSession(this.#host.proxyUrl);
          if (run.session) {
            this.#follow(run);
            return;
          }
        }
        const signedIn = await channel.isSignedIn();
        if (this.#current(run) && run.fan.session === 'unknown')
          this.#setFan(run, { session: signedIn ? 'signed-in' : 'signed-out' });
        if (signedIn) await this.#readFanVote(run, channel);
      } catch {
        if (this.#current(run) && run.fan.session === 'unknown') this.#setFan(run, { session: 'signed-out' });
      }
    })();
  }

  /**
   * Every card voting through the proxy follows the page's session (which calls this when it subscribes and at each
   * change): who is signed in, and their vote here.
   */
  #followSession(run: VotingRun, next: FanSession): void {
    const followed = cardDetails.get()?.followSession(run.fan, run.signedInUser, next);
    if (!followed || !this.#current(run)) return;
    run.signedInUser = followed.user;
    this.#change(run, { fan: followed.fan, voteError: undefined });
    const channel = this.channel;
    if (followed.user !== undefined && !run.fan.vote && channel) void this.#readFanVote(run, channel);
  }

  async #readFanVote(run: VotingRun, channel: VoteChannel): Promise<void> {
    try {
      const view: FanPollView = await channel.fanView(run.pollId);
      if (!this.#current(run)) return;
      const answer = view.answers.find((each) => each.voteStatus !== undefined);
      this.#setFan(run, {
        voteKnown: true,
        ...(answer && { vote: { answerId: answer.id, voteStatus: answer.voteStatus } }),
      });
    } catch (error) {
      if (!this.#current(run)) return;
      const signedOut = error instanceof WidgetError && error.code === 'sign-in-required';
      // Unread (the proxy or platform failed): the card offers the vote; the platform refuses a second one.
      this.#setFan(run, signedOut ? { session: 'signed-out' } : { voteKnown: true });
      // The proxy's session ended (expired, or signed out elsewhere): every card of the page hears it.
      if (signedOut) void run.session?.check();
    }
  }

  #signIn(run: VotingRun, channel: VoteChannel): void {
    run.busy = true;
    this.#change(run, { voteError: undefined, fan: { ...run.fan, session: 'signing-in' } });
    const event = (stage: 'started' | 'signed-in' | 'failed'): FanPollSignInEvent =>
      new FanPollSignInEvent({ ...this.#detail(run), stage, via: channel.via });
    this.#host.dispatchEvent(event('started'));
    channel
      .signIn(this.#host.tracking)
      .then(async (signedIn) => {
        // Through the proxy, the page's session tells every card (this one too) who signed in, and they read the
        // fan's vote; a cancelled switch of account leaves the fan signed in as before.
        const now = run.session ? (await run.session.changed()).state : undefined;
        this.#setFan(run, { session: now ?? (signedIn ? 'signed-in' : 'signed-out') });
        this.#host.dispatchEvent(event(signedIn ? 'signed-in' : 'failed'));
        if (!signedIn) this.#change(run, { voteError: 'signInCancelled' });
        else if (!run.session) await this.#readFanVote(run, channel);
      })
      .catch(async (error: unknown) => {
        // Why the sign-in failed comes with the details chunk (loaded as the voting started).
        const failure = (await cardDetails.load().catch(() => undefined))?.signInFailure(error, run.session);
        this.#change(run, {
          fan: { ...run.fan, session: failure?.session ?? 'signed-out' },
          voteError: failure?.error,
        });
        this.#host.dispatchEvent(event('failed'));
        this.#hooks.reportError(failure?.code ?? 'sign-in-failed', error);
      })
      .finally(() => {
        run.busy = false;
      });
  }

  #vote(run: VotingRun, channel: VoteChannel): void {
    const answerId = run.selected;
    if (answerId === undefined) {
      this.#change(run, { voteError: 'chooseAnswer' });
      this.#host.shadowRoot?.querySelector('input')?.focus();
      return;
    }
    run.busy = true;
    // The button goes once the vote is in: focus then moves to the card's "You voted for" line, not the page.
    const hadFocus = !!this.#host.shadowRoot?.activeElement;
    this.#change(run, { voteError: undefined, fan: { ...run.fan, voting: true } });
    this.#host.dispatchEvent(new FanPollVoteEvent({ ...this.#detail(run), answerId }));
    channel
      .vote(run.pollId, answerId)
      .then(async (recorded) => {
        await this.#voted(run, channel, recorded, hadFocus);
      })
      .catch(async (error: unknown) => {
        await this.#voteFailed(run, channel, error);
      })
      .finally(() => {
        run.busy = false;
      });
  }

  async #voted(run: VotingRun, channel: VoteChannel, recorded: string, hadFocus: boolean): Promise<void> {
    // The answer the platform recorded (the extension's confirmed one), not necessarily the card's pick.
    this.#change(run, {
      fan: { ...run.fan, voting: false, vote: { answerId: recorded } },
      selected: recorded,
    });
    this.#hooks.announceVote(recorded);
    this.#host.dispatchEvent(new FanPollVotedEvent({ ...this.#detail(run), answerId: recorded }));
    this.#hooks.refreshPoll();
    if (hadFocus) void this.#keepFocus();
    // The vote is in: the status reads below must not let the fan vote again, even if they fail.
    run.busy = false;
    const read = async (): Promise<string | undefined> => {
      await this.#readFanVote(run, channel);
      return run.fan.vote?.voteStatus;
    };
    const status = await read();
    if (status === undefined || status === 'pending')
      await (await cardDetails.load()).followVoteStatus(read, () => this.#current(run));
  }

  /** A refused or failed vote: what it means comes with the details chunk (loaded as the voting started). */
  async #voteFailed(run: VotingRun, channel: VoteChannel, error: unknown): Promise<void> {
    const code = error instanceof WidgetError ? error.code : 'vote-failed';
    const details = await cardDetails.load().catch(() => undefined);
    const failure = details?.voteFailure(code, run.fan) ?? { fan: { ...run.fan, voting: false } };
    this.#change(run, { fan: failure.fan, voteError: failure.error });
    this.#hooks.reportError(code, error);
    if (failure.next === 'refresh-poll') this.#hooks.refreshPoll();
    if (failure.next === 'read-vote') await this.#readFanVote(run, channel);
  }

  async #keepFocus(): Promise<void> {
    await this.#host.updateComplete;
    this.#host.shadowRoot?.querySelector<HTMLElement>('.outcome')?.focus();
  }
}
