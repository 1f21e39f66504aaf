import { html, type TemplateResult } from 'lit';
import { detailWords, type ActionErrorKey } from '../i18n/detail-words.ts';
import type { CardStrings } from '../i18n/strings.ts';
import type { PollView } from '../store/poll-model.ts';
import type { PageSession } from '../session/page-session.ts';
import { frameSessionOffered } from './cookie-refusal.ts';
import { storageAccessAskable, WidgetError, type WidgetErrorCode } from './widget-error.ts';
import type { FanAction, FanState } from './fan-action.ts';

/** "You voted for X (confirmed)": the line the card shows and says once the fan's vote is in. */
export function votedText(
  view: PollView | undefined,
  answerId: string,
  voteStatus: string | undefined,
  strings: CardStrings,
): string {
  const words = detailWords(strings);
  const answer = view?.answers.find((each) => each.id === answerId)?.text ?? '';
  return `${words.votedFor(answer)}${voteStatus ? ` (${words.voteStatus(voteStatus)})` : ''}`;
}

/**
 * Where the fan's action ended: their vote, a rejected vote, or a refusal with what the fan can do next. Focus moves
 * here when the vote button goes (`tabindex="-1"`: focusable from script, not a Tab stop).
 */
export function renderOutcome(
  view: PollView,
  action: Extract<FanAction, { kind: 'voted' | 'rejected' | 'not-holder' }>,
  strings: CardStrings,
): TemplateResult {
  const words = detailWords(strings);
  const text =
    action.kind === 'voted'
      ? votedText(view, action.answerId, action.voteStatus, strings)
      : action.kind === 'rejected'
        ? words.rejected
        : `${words.notHolder(view.partnerName)} ${words.notHolderNext}`;
  return html`<span class="note outcome" tabindex="-1">${text}</span>`;
}

/** The words of a failed action, in the card's language. */
export function actionError(key: ActionErrorKey, strings: CardStrings): string {
  return detailWords(strings)[key];
}

/** What a refused or failed vote leaves: the fan's state, the words under the button, and what the card does next. */
export interface VoteFailure {
  readonly fan: FanState;
  readonly error?: ActionErrorKey;
  /** `refresh-poll`: the platform says the poll is not open; `read-vote`: show the vote it already has, if any. */
  readonly next?: 'refresh-poll' | 'read-vote';
}

/** The card's state after a vote the channel refused with `code` (a `WidgetError` code). Never a second vote. */
export function voteFailure(code: string, fan: FanState): VoteFailure {
  const after: FanState = {
    ...fan,
    voting: false,
    notHolder: code === 'not-holder',
    pollClosed: code === 'poll-closed',
    session: code === 'sign-in-required' ? 'signed-out' : fan.session,
  };
  if (code === 'poll-closed') return { fan: after, next: 'refresh-poll' };
  if (code === 'vote-cancelled') return { fan: after, error: 'voteCancelled' };
  // Nothing was sent: the fan's pick and session stay, and the next tap tries again.
  if (code === 'voting-unavailable') return { fan: after, error: 'votingUnavailable' };
  if (code === 'already-voted' || code === 'vote-refused')
    return {
      fan: after,
      error: code === 'already-voted' ? 'alreadyVoted' : 'voteRefused',
      next: 'read-vote',
    };
  return code === 'not-holder' ? { fan: after } : { fan: after, error: 'errorVote' };
}

/** Re-reads of the fan's vote while the platform confirms it: after 2, 4, 8, 16 s. */
const voteStatusPollsMs = [2000, 4000, 8000, 16_000];

/**
 * Re-reads the fan's vote (`read`, which answers its `voteStatus`) until the platform gives it a final status, while
 * `current()`; never re-sends the vote.
 */
export async function followVoteStatus(
  read: () => Promise<string | undefined>,
  current: () => boolean,
): Promise<void> {
  for (const delay of voteStatusPollsMs) {
    await new Promise((resolve) => setTimeout(resolve, delay));
    if (!current()) return;
    const status = await read();
    if (status !== undefined && status !== 'pending') return;
  }
}

/** What a `cookies-blocked` says, by what the card's next sign-in click does (its `cause`). */
function cookiesErrorKey(cause: unknown): ActionErrorKey {
  if (cause === storageAccessAskable) return 'cookiesAsk';
  return cause === frameSessionOffered ? 'cookiesFrame' : 'cookiesBlocked';
}

/** A sign-in that threw: the fan stays as the page's session knows them; the words and the event's code. */
export function signInFailure(
  error: unknown,
  session: PageSession | undefined,
): { session: FanState['session']; error: ActionErrorKey; code: WidgetErrorCode } {
  const code = error instanceof WidgetError ? error.code : 'sign-in-failed';
  return {
    session: session?.current.state === 'signed-in' ? 'signed-in' : 'signed-out',
    error:
      code === 'popup-blocked'
        ? 'popupBlocked'
        : code === 'cookies-blocked'
          ? cookiesErrorKey((error as WidgetError).cause)
          : code === 'voting-unavailable'
            ? 'votingUnavailable'
            : 'signInFailed',
    code,
  };
}
