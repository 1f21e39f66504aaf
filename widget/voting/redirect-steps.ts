/**
 * A card's part in a sign-in without a pop-up, in the details chunk: when to offer it (the card's `sign-in="redirect"`,
 * or a browser that opened no sign-in window), the fan's click that leaves (`redirect-sign-in.ts`), and what the card
 * shows once the page came back (`redirect-return.ts`); those two are a chunk of their own (`redirect-part.ts`).
 */
import { lazyPart } from '../base/lazy-part.ts';
import { FanPollSignInEvent, type FanPollSignInDetail } from '../events/fan-poll-sign-in-event.ts';
import type { FanState } from './fan-action.ts';
import type { VotingCard } from './voting-host.ts';
import type { ActionErrorKey } from '../i18n/detail-words.ts';
import { signInFailure } from './vote-outcome.ts';
import { framePickKey } from '../../src/contracts/sign-in-return-key.ts';
import { withFragmentValue } from '../../src/contracts/sign-in-return-fragment.ts';
import type { ProxyVoteChannel } from './proxy-channel.ts';
import { claimSignInReturn } from './sign-in-return.ts';
import type { VotingRun, VotingSteps } from './voting-run.ts';

const redirectPart = lazyPart(() => import('./redirect-part.ts'));

/** The card can send the top-level page: it is in it, or (the banner's card) its host told it the page's address. */
export function canLeaveForSignIn(host: VotingCard): boolean {
  return window.top === window || host.signInPage !== undefined;
}

/** The partner asked for no pop-up (`sign-in="redirect"`), and the card can do without one. */
export function redirectAsked(host: VotingCard): boolean {
  return host.getAttribute('sign-in') === 'redirect' && canLeaveForSignIn(host);
}

/**
 * From now on the card's sign-in sends the page ("Continue to sign in"), with `error` under the button; the way out's
 * chunk is fetched now, so that the click navigates at once.
 */
export function offerRedirect(
  steps: VotingSteps,
  run: VotingRun,
  session: FanState['session'] = run.fan.session,
  error?: ActionErrorKey,
): void {
  redirectPart.load().catch(() => undefined);
  steps.change(run, { fan: { ...run.fan, session, redirectSignIn: true }, voteError: error });
}

type RedirectPart = Awaited<ReturnType<typeof redirectPart.load>>;

function signInEvent(steps: VotingSteps, run: VotingRun, stage: FanPollSignInDetail['stage']): Event {
  return new FanPollSignInEvent({
    pollId: run.pollId,
    tracking: steps.host.tracking,
    stage,
    via: 'redirect',
  });
}

/** The fan's click on "Continue to sign in": the page leaves for the sign-in (nothing is cast until it is back). */
export function leaveForSignIn(steps: VotingSteps, run: VotingRun): void {
  const { host } = steps;
  const proxyUrl = host.proxyUrl;
  if (!proxyUrl || !canLeaveForSignIn(host)) return;
  const before = run.fan.session;
  const leave = (part: RedirectPart): void => {
    steps.change(run, { voteError: undefined, fan: { ...run.fan, session: 'signing-in' } });
    host.dispatchEvent(signInEvent(steps, run, 'started'));
    const pick = run.selected === undefined ? undefined : { pollId: run.pollId, answerId: run.selected };
    const tracking = host.tracking;
    const framePage = window.top === window ? undefined : host.signInPage;
    // A page's pick waits in its storage; a banner's frame may have none, so its pick travels in its way back.
    const trip =
      framePage === undefined
        ? { proxyUrl, pollId: run.pollId, tracking, pick, framePage }
        : {
            proxyUrl,
            pollId: run.pollId,
            tracking,
            pick: undefined,
            framePage: pick ? withFragmentValue(framePage, framePickKey, JSON.stringify(pick)) : framePage,
          };
    part.leaveForSignIn(trip, () => {
      if (steps.current(run)) steps.change(run, { fan: { ...run.fan, session: before } });
    });
  };
  // At once when the chunk is here (it is fetched as the card offers this way): a frame's click must navigate now.
  const part = redirectPart.get();
  if (part) leave(part);
  else
    redirectPart.load().then(leave, (error: unknown) => {
      if (steps.current(run)) steps.change(run, { voteError: 'signInFailed' });
      steps.hooks.reportError('sign-in-failed', error);
    });
}

/**
 * On a page that came back from the sign-in: the card waits for the page's outcome (`signing-in` meanwhile), then
 * `follow`s the page's session; the card the outcome is for shows it and the fan's pick (`outcomeFor`), nothing cast.
 */
export async function comeBackFromSignIn(
  steps: VotingSteps,
  run: VotingRun,
  channel: ProxyVoteChannel,
  follow: () => void,
): Promise<void> {
  const session = run.session;
  if (!session) return;
  steps.change(run, { fan: { ...run.fan, session: 'signing-in', redirectSignIn: true } });
  const back = await redirectPart.load().catch(() => undefined);
  if (!back) {
    // The chunk did not come (offline, a deploy meanwhile): the code stays unspent, the card follows the session.
    follow();
    return;
  }
  const outcome = await back.signInReturned(run, { channel, session, claim: claimSignInReturn });
  follow();
  const shown = back.outcomeFor(run);
  if (!shown || !steps.current(run)) return;
  const { host, hooks } = steps;
  if (shown.pick) steps.change(run, { selected: shown.pick.answerId });
  const tell = (stage: 'signed-in' | 'failed'): void => {
    if (shown.tell) host.dispatchEvent(signInEvent(steps, run, stage));
  };
  if (outcome.kind === 'signed-in') {
    tell('signed-in');
    return;
  }
  tell('failed');
  if (outcome.kind === 'cancelled') {
    steps.change(run, { voteError: 'signInCancelled' });
    return;
  }
  const failure = signInFailure(outcome.error, session);
  // A frame whose next tap asks the browser for its cookies offers its own "Sign in to vote", no second trip.
  const asks = failure.error === 'cookiesAsk';
  steps.change(run, {
    voteError: failure.error,
    ...(asks && { fan: { ...run.fan, redirectSignIn: false } }),
  });
  if (shown.tell) hooks.reportError(failure.code, outcome.error);
}
