/**
 * The work of a card's voting once it started (finding the fan, following the page's session and fan votes, sign-in,
 * vote, and what follows them), in the details chunk: the card's voting controller (`fan-vote-controller.ts`) holds
 * the state and imports this as its voting starts, so it is here by the fan's first click. `signIn` must be called
 * straight from the click (the proxy channel opens a popup; a sign-in without one, `redirect-steps.ts`, navigates).
 */
import { FanPollSignInEvent } from '../events/fan-poll-sign-in-event.ts';
import { FanPollVoteEvent } from '../events/fan-poll-vote-event.ts';
import { FanPollVotedEvent } from '../events/fan-poll-voted-event.ts';
import type { FanState } from './fan-action.ts';
import { followSession } from './session-follow.ts';
import { followVoteStatus, signInFailure, voteFailure } from './vote-outcome.ts';
import { followFanVote, shareFanVote, type FanKey, type FanVote } from '../session/fan-votes.ts';
import { pageSession } from '../session/page-session.ts';
import { proxyVoteChannel, type ProxyVoteChannel } from './proxy-channel.ts';
import {
  canLeaveForSignIn,
  comeBackFromSignIn,
  leaveForSignIn,
  offerRedirect,
  redirectAsked,
} from './redirect-steps.ts';
import { cameBackFromSignIn } from './sign-in-return.ts';
import type { VoteHint } from '../session/vote-hint.ts';
import { followVoteHints, tellVote } from '../session/vote-travel.ts';
import type { FanPollView, VoteChannel } from './vote-channel.ts';
import type { VotingRun, VotingSteps } from './voting-run.ts';
import { WidgetError } from './widget-error.ts';

function detail(steps: VotingSteps, run: VotingRun) {
  return { pollId: run.pollId, tracking: steps.host.tracking };
}

function setFan(steps: VotingSteps, run: VotingRun, patch: Partial<FanState>): void {
  steps.change(run, { fan: { ...run.fan, ...patch } });
}

/** Whose votes the run shares with the page's other cards: none for a channel a host gave the card. */
function fanKey(steps: VotingSteps, run: VotingRun): FanKey | undefined {
  if (steps.host.channel) return undefined;
  return run.channel?.via === 'extension' ? 'extension' : run.signedInUser;
}

/** Finds how the fan votes, whether they are signed in, and their vote (`channel`: the controller's choice). */
export async function loadFan(
  steps: VotingSteps,
  run: VotingRun,
  chosen: Promise<VoteChannel | undefined>,
): Promise<void> {
  const { host } = steps;
  // Back from a sign-in without a pop-up: the card says so from the start (the extension's handshake takes a while).
  const cameBack = cameBackFromSignIn() && !host.channel;
  if (cameBack) setFan(steps, run, { session: 'signing-in' });
  try {
    const channel = await chosen;
    run.channel = channel;
    if (!channel || !steps.current(run)) return;
    const proxyUrl = proxySessionOf(steps, channel);
    if (cameBack && !proxyUrl) setFan(steps, run, { session: 'unknown' });
    if (proxyUrl) {
      run.session = pageSession(proxyUrl);
      if (redirectAsked(host)) offerRedirect(steps, run);
      const proxy = proxyVoteChannel(proxyUrl);
      // Back from a sign-in without a pop-up: the page's code is redeemed before the card follows the session.
      if (cameBack && proxy)
        await comeBackFromSignIn(steps, run, proxy, () => {
          followPage(steps, run);
        });
      else followPage(steps, run);
      return;
    }
    const signedIn = await channel.isSignedIn();
    if (steps.current(run) && run.fan.session === 'unknown')
      setFan(steps, run, { session: signedIn ? 'signed-in' : 'signed-out' });
    if (signedIn) {
      followPage(steps, run);
      await readFanVote(steps, run, channel);
    }
  } catch {
    if (steps.current(run) && run.fan.session === 'unknown') setFan(steps, run, { session: 'signed-out' });
  }
}

/**
 * While the card is on the page: the page's session (for a card voting through the proxy; it calls back when
 * subscribed and at each change) and the page's votes of this fan in this poll.
 */
export function followPage(steps: VotingSteps, run: VotingRun): void {
  if (!run.session && fanKey(steps, run) === undefined) return;
  steps.follow(run, () => {
    let unfollowVote: (() => void) | undefined;
    const followVote = (): void => {
      unfollowVote?.();
      const fan = fanKey(steps, run);
      unfollowVote =
        fan === undefined
          ? undefined
          : followFanVote(fan, run.pollId, (vote) => {
              takeVote(steps, run, vote);
            });
    };
    const unfollowSession = run.session?.subscribe((next) => {
      const followed = followSession(run.fan, run.signedInUser, next);
      if (!followed || !steps.current(run)) return;
      const sameFan = followed.user === run.signedInUser;
      run.signedInUser = followed.user;
      // A word about the last action (a failed sign-in, say) stays while the session only repeats what it was.
      const moved = !sameFan || followed.fan.session !== run.fan.session;
      if (moved) run.sessionMoves = (run.sessionMoves ?? 0) + 1;
      steps.change(run, moved ? { fan: followed.fan, voteError: undefined } : { fan: followed.fan });
      if (!sameFan) followVote();
      const channel = run.channel;
      if (followed.user !== undefined && !run.fan.vote && channel) void readFanVote(steps, run, channel);
    });
    followVote();
    // Votes learnt in the page's banners or its host, or in other tabs of this proxy: hints this card confirms.
    const proxy = proxyOriginOf(steps, run);
    const unfollowHints =
      proxy === undefined
        ? undefined
        : followVoteHints(proxy, run.pollId, (hint) => {
            takeHint(steps, run, hint);
          });
    return () => {
      unfollowSession?.();
      unfollowVote?.();
      unfollowHints?.();
    };
  });
}

/** A vote of this fan in this poll that the page learnt (this card's or another's). */
function takeVote(steps: VotingSteps, run: VotingRun, vote: FanVote): void {
  const mine = run.fan.vote;
  if (!steps.current(run) || (mine?.answerId === vote.answerId && mine.voteStatus === vote.voteStatus))
    return;
  setFan(steps, run, { vote, voteKnown: true });
}

/** The proxy origin of a card that votes through the proxy's session (the one votes travel between documents for). */
function proxyOriginOf(steps: VotingSteps, run: VotingRun): string | undefined {
  const proxyUrl = steps.host.proxyUrl;
  return run.session && !steps.host.channel && proxyUrl ? new URL(proxyUrl).origin : undefined;
}

/**
 * A vote of this fan in this poll heard from another document: shown at once when the card knows of none, then
 * confirmed by reading the fan's poll (a forged hint is undone by that read, and never casts a vote).
 */
function takeHint(steps: VotingSteps, run: VotingRun, hint: VoteHint): void {
  const mine = run.fan.vote;
  const channel = run.channel;
  if (!steps.current(run) || run.busy || run.fan.session !== 'signed-in' || !channel) return;
  if (mine?.answerId === hint.answerId && mine.voteStatus === hint.voteStatus) return;
  if (!mine) {
    const vote = { answerId: hint.answerId, voteStatus: hint.voteStatus };
    run.hinted = vote;
    setFan(steps, run, { vote, voteKnown: true });
  }
  void readFanVote(steps, run, channel);
}

function share(steps: VotingSteps, run: VotingRun): void {
  const fan = fanKey(steps, run);
  const vote = run.fan.vote;
  if (fan === undefined || !vote || !shareFanVote(fan, run.pollId, vote)) return;
  const proxy = proxyOriginOf(steps, run);
  if (proxy !== undefined)
    tellVote({
      proxy,
      pollId: run.pollId,
      answerId: vote.answerId,
      ...(vote.voteStatus !== undefined && { voteStatus: vote.voteStatus }),
    });
}

/** The fan's state without its vote, when the vote is the unconfirmed hint `hinted` (else unchanged). */
function withoutHinted(fan: FanState, hinted: FanState['vote']): Partial<FanState> {
  return hinted !== undefined && fan.vote === hinted ? { vote: undefined } : {};
}

export async function readFanVote(steps: VotingSteps, run: VotingRun, channel: VoteChannel): Promise<void> {
  // A hint heard before this read started is confirmed or undone by it; one heard later waits for its own read.
  const hinted = run.hinted;
  try {
    const view: FanPollView = await channel.fanView(run.pollId);
    if (!steps.current(run)) return;
    const answer = view.answers.find((each) => each.voteStatus !== undefined);
    if (run.hinted === hinted) run.hinted = undefined;
    setFan(steps, run, {
      voteKnown: true,
      ...(answer
        ? { vote: { answerId: answer.id, voteStatus: answer.voteStatus } }
        : withoutHinted(run.fan, hinted)),
    });
    share(steps, run);
  } catch (error) {
    if (!steps.current(run)) return;
    const signedOut = error instanceof WidgetError && error.code === 'sign-in-required';
    if (run.hinted === hinted) run.hinted = undefined;
    // Unread (the proxy or platform failed): the card offers the vote (a hint unconfirmed goes); the platform
    // refuses a second one.
    setFan(
      steps,
      run,
      signedOut
        ? { session: 'signed-out', ...withoutHinted(run.fan, hinted) }
        : { voteKnown: true, ...withoutHinted(run.fan, hinted) },
    );
    // The proxy's session ended (expired, or signed out elsewhere): every card of the page hears it.
    if (signedOut) void run.session?.check();
  }
}

/**
 * The proxy's URL when the card signs in through the proxy's own session (not the extension, not a host's channel):
 * known from the channel, as the fan may click before the voting found the fan (the extension's handshake takes up to
 * a second).
 */
function proxySessionOf(steps: VotingSteps, channel: VoteChannel): string | undefined {
  return channel.via === 'popup' && !steps.host.channel ? steps.host.proxyUrl : undefined;
}

export function signIn(steps: VotingSteps, run: VotingRun, channel: VoteChannel): void {
  const { host, hooks } = steps;
  // A frame about to ask the browser for its cookies (`storage-access.ts`) asks from this click, no trip away.
  const asksStorageAccess = (channel as Partial<ProxyVoteChannel>).asksStorageAccess?.() === true;
  if (
    (run.fan.redirectSignIn || redirectAsked(host)) &&
    proxySessionOf(steps, channel) &&
    !asksStorageAccess
  ) {
    leaveForSignIn(steps, run);
    return;
  }
  run.busy = true;
  steps.change(run, { voteError: undefined, fan: { ...run.fan, session: 'signing-in' } });
  const event = (stage: 'started' | 'signed-in' | 'failed'): FanPollSignInEvent =>
    new FanPollSignInEvent({ ...detail(steps, run), stage, via: channel.via });
  host.dispatchEvent(event('started'));
  channel
    .signIn(host.tracking, run.pollId)
    .then(async (signedIn) => {
      // Through the proxy, the page's session tells every card (this one too) who signed in, and they read the
      // fan's vote; a cancelled switch of account leaves the fan signed in as before. A sign-in that ends before the
      // card has chosen its channel (the extension's handshake) tells them too.
      const proxyUrl = proxySessionOf(steps, channel);
      const session = run.session ?? (proxyUrl === undefined ? undefined : pageSession(proxyUrl));
      const now = session ? (await session.changed()).state : undefined;
      steps.change(run, { fan: { ...run.fan, session: now ?? (signedIn ? 'signed-in' : 'signed-out') } });
      host.dispatchEvent(event(signedIn ? 'signed-in' : 'failed'));
      if (!signedIn) steps.change(run, { voteError: 'signInCancelled' });
      else if (!run.session) {
        followPage(steps, run);
        await readFanVote(steps, run, channel);
      }
    })
    .catch((error: unknown) => {
      const failure = signInFailure(error, run.session);
      // No window (an in-app browser, a WebView): a signed-out fan is offered the sign-in by the page itself instead
      // (a signed-in fan switching account keeps their session and the words about the window).
      const offer = failure.code === 'popup-blocked' && failure.session === 'signed-out';
      if (offer && proxySessionOf(steps, channel) && canLeaveForSignIn(host))
        offerRedirect(steps, run, failure.session, 'signInHere');
      else steps.change(run, { fan: { ...run.fan, session: failure.session }, voteError: failure.error });
      host.dispatchEvent(event('failed'));
      hooks.reportError(failure.code, error);
    })
    .finally(() => {
      steps.change(run, { busy: false });
    });
}

export function vote(steps: VotingSteps, run: VotingRun, channel: VoteChannel): void {
  const { host } = steps;
  const answerId = run.selected;
  if (answerId === undefined) {
    steps.change(run, { voteError: 'chooseAnswer' });
    host.shadowRoot?.querySelector('input')?.focus();
    return;
  }
  run.busy = true;
  // The button goes once the vote is in: focus then moves to the card's "You voted for" line, not the page.
  const hadFocus = !!host.shadowRoot?.activeElement;
  steps.change(run, { voteError: undefined, fan: { ...run.fan, voting: true } });
  host.dispatchEvent(new FanPollVoteEvent({ ...detail(steps, run), answerId }));
  channel
    .vote(run.pollId, answerId, host.tracking)
    .then(async (recorded) => {
      await voted(steps, run, channel, recorded, hadFocus);
    })
    .catch(async (error: unknown) => {
      await voteFailed(steps, run, channel, error);
    })
    .finally(() => {
      steps.change(run, { busy: false });
    });
}

async function voted(
  steps: VotingSteps,
  run: VotingRun,
  channel: VoteChannel,
  recorded: string,
  hadFocus: boolean,
): Promise<void> {
  const { host, hooks } = steps;
  // The answer the platform recorded (the extension's confirmed one), not necessarily the card's pick.
  steps.change(run, { fan: { ...run.fan, voting: false, vote: { answerId: recorded } }, selected: recorded });
  // Every other card of this poll on the page shows the vote at once, and offers no second one.
  share(steps, run);
  hooks.announceVote(recorded);
  host.dispatchEvent(new FanPollVotedEvent({ ...detail(steps, run), answerId: recorded }));
  hooks.refreshPoll();
  if (hadFocus)
    void host.updateComplete.then(() => {
      host.shadowRoot?.querySelector<HTMLElement>('.outcome')?.focus();
    });
  // The vote is in: the status reads below must not let the fan vote again, even if they fail.
  steps.change(run, { busy: false });
  const read = async (): Promise<string | undefined> => {
    await readFanVote(steps, run, channel);
    return run.fan.vote?.voteStatus;
  };
  const status = await read();
  // Followed while the fan who voted stays signed in: once the session moved (signed out here or elsewhere, even if
  // signed in again since), the status is not read.
  const moves = run.sessionMoves;
  const followed = () => steps.current(run) && run.sessionMoves === moves && run.fan.session === 'signed-in';
  if (status === undefined || status === 'pending') await followVoteStatus(read, followed);
}

/** A refused or failed vote: what it means, and what to do next. */
async function voteFailed(
  steps: VotingSteps,
  run: VotingRun,
  channel: VoteChannel,
  error: unknown,
): Promise<void> {
  const code = error instanceof WidgetError ? error.code : 'vote-failed';
  const failure = voteFailure(code, run.fan);
  steps.change(run, { fan: failure.fan, voteError: failure.error });
  steps.hooks.reportError(code, error);
  if (failure.next === 'refresh-poll') steps.hooks.refreshPoll();
  if (failure.next === 'read-vote') await readFanVote(steps, run, channel);
}
