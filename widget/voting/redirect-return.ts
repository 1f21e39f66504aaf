/**
 * A sign-in without a pop-up, the way back: the page came back with the marker (`sign-in-return.ts`). The first card
 * of the page that votes through the proxy redeems its code through its proxy channel, once for the whole page, and
 * every card and document of the page then reads the new session (`PageSession.changed`); the card of the poll the fan
 * had picked shows the outcome and that pick again. Nothing is ever cast here: the fan taps Vote. Its own chunk,
 * imported only on a page that came back.
 */
import type { SignInPick, SignInReturn } from '../../src/contracts/sign-in-return.ts';
import type { PageSession } from '../session/page-session.ts';
import type { ProxyVoteChannel } from './proxy-channel.ts';
import type { AddressReturn } from './address-return.ts';
import { readSignInPick, takeSignInPick } from './sign-in-pick.ts';
import type { VotingRun } from './voting-run.ts';
import { WidgetError } from './widget-error.ts';

export type ReturnOutcome =
  | { readonly kind: 'signed-in' }
  | { readonly kind: 'cancelled' }
  | { readonly kind: 'failed'; readonly error: WidgetError };

/** The page's one outcome, the run that settled it, the fan's pick, and whether a card has told the page. */
let settled: Promise<ReturnOutcome> | undefined;
let claimer: VotingRun | undefined;
let pick: SignInPick | undefined;
let told = false;

/**
 * The page's outcome (settled by the first caller): once it resolves, the page's session is read (signed in, or as it
 * was), so that a card following it from then on hears the outcome's session at once.
 */
export function signInReturned(
  run: VotingRun,
  back: {
    readonly channel: ProxyVoteChannel;
    readonly session: PageSession;
    /** What the page brought back (`sign-in-return.ts`), taken by the first card only. */
    readonly claim: () => AddressReturn | undefined;
  },
): Promise<ReturnOutcome> {
  if (settled) return settled;
  const { channel, session } = back;
  claimer = run;
  const claimed = back.claim();
  // A banner's pick came in its address; a page card's, in storage.
  pick = readSignInPick(claimed?.pick) ?? takeSignInPick();
  settled = outcomeOf(claimed?.marker, channel).then(async (outcome) => {
    // Every card of the page, and the page's other documents, hear a new session; a failure leaves it as it was.
    await (outcome.kind === 'signed-in' ? session.changed() : session.check());
    return outcome;
  });
  return settled;
}

async function outcomeOf(
  marker: SignInReturn | undefined,
  channel: ProxyVoteChannel,
): Promise<ReturnOutcome> {
  if (marker === undefined) return failed('The sign-in brought nothing back.');
  // `access_denied`: the fan said no on the consent page, a cancel as in the pop-up.
  if ('error' in marker)
    return marker.error === 'access_denied'
      ? { kind: 'cancelled' }
      : failed(`The sign-in did not finish (${marker.error.slice(0, 40)}).`);
  if (!/^[\w-]{20,128}$/.test(marker.handoff)) return failed('The sign-in brought back no usable code.');
  try {
    await channel.redeemHandoff(marker.handoff);
    return { kind: 'signed-in' };
  } catch (error) {
    return {
      kind: 'failed',
      error: error instanceof WidgetError ? error : new WidgetError('sign-in-failed', String(error)),
    };
  }
}

function failed(message: string): ReturnOutcome {
  return { kind: 'failed', error: new WidgetError('sign-in-failed', message) };
}

/**
 * What `run`'s card shows of the outcome. The card the sign-in was for (its pick's poll, or with no pick the card that
 * settled it) `tell`s the page (the sign-in event, an error report) and shows the pick, once. With no pick the
 * sign-in was the page's, not one card's: every other card shows the outcome too; with a pick, they only follow the
 * session (undefined).
 */
export function outcomeFor(
  run: VotingRun,
): { readonly tell: boolean; readonly pick: SignInPick | undefined } | undefined {
  const owner = pick ? pick.pollId === run.pollId : run === claimer;
  if (owner && !told) {
    told = true;
    return { tell: true, pick };
  }
  return pick ? undefined : { tell: false, pick: undefined };
}
