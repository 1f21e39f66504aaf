import { html, type TemplateResult } from 'lit';
import { detailWords, type ActionErrorKey } from '../i18n/detail-words.ts';
import type { CardStrings } from '../i18n/strings.ts';
import type { PollView } from '../store/poll-model.ts';
import type { FanAction } from './fan-action.ts';

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
