/**
 * What a card of any phase shows at first paint besides an open poll's question and answers: the other phases' badge
 * and note (results to come, the winner or a tie, a cancellation), the results (each answer's share, the fan's own
 * answer marked, the tokens), and the collapse of a long poll. In the element code: no phase waits for a chunk.
 */
import { html, nothing, type TemplateResult } from 'lit';
import { formatCount, formatCountdown, formatPercent } from '../../src/polls/format.ts';
import { phaseWords as words } from '../i18n/phase-words.ts';
import type { CardStrings } from '../i18n/strings.ts';
import type { AnswerView, PollView } from '../store/poll-model.ts';

/** The badge of a phase other than open; an unknown status is shown as the platform sent it. */
export function phaseBadge(view: PollView, strings: CardStrings, locale: string): string {
  const w = words(strings);
  switch (view.phase) {
    case 'upcoming':
      return `${w.upcoming} · ${w.opensIn(formatCountdown(view.opensInMs ?? 0, { locale }))}`;
    case 'closed':
      return w.closed;
    case 'disclosed':
      return w.disclosed;
    case 'cancelled':
      return w.cancelled;
    default:
      return view.status ? `${w.unknownStatus} (${view.status})` : w.unknownStatus;
  }
}

/** Under the answers: results to come, the winner or a tie (named as one), or the cancellation. */
export function phaseNote(
  view: PollView,
  strings: CardStrings,
  locale: string,
): TemplateResult | typeof nothing {
  const w = words(strings);
  let text: string | undefined;
  if (view.phase === 'closed' && view.disclosesInMs !== undefined)
    text = w.resultsIn(formatCountdown(view.disclosesInMs, { locale }));
  else if (view.phase === 'cancelled') text = w.cancelledNote;
  else if (view.phase === 'disclosed') {
    // Every answer with the most tokens: one is the winner, more are a tie.
    const most = Math.max(0, ...view.answers.map((answer) => answer.tokens));
    const top = view.answers
      .filter((answer) => most > 0 && answer.tokens === most)
      .map((answer) => answer.text);
    text =
      top.length === 0
        ? w.noVotes
        : top.length === 1
          ? w.winner(top[0] ?? '')
          : w.tie(new Intl.ListFormat(locale, { type: 'conjunction' }).format(top));
  }
  return text === undefined ? nothing : html`<p part="outcome" class="outcome">${text}</p>`;
}

/** An answer's share, as text and as a bar; and the fan's own answer marked as theirs. */
export function answerResult(
  answer: AnswerView,
  mine: boolean,
  strings: CardStrings,
  locale: string,
): TemplateResult {
  return html`${mine ? html`<span class="tag">${words(strings).yourVote}</span>` : nothing}
    <span class="percent">${formatPercent(answer.percentage, { locale })}</span>
    <progress max="100" value=${answer.percentage} aria-hidden="true"></progress>`;
}

/** The tokens behind the results, in words: votes are weighted by fan tokens, with the per-fan cap when there is one. */
export function tokensText(view: PollView, strings: CardStrings, locale: string): string {
  const count = (value: number): string => formatCount(value, { locale });
  // 0: the poll has no per-fan cap (or did not say), so none is shown.
  return words(strings).tokens(
    count(view.usedTokens),
    view.tokenLimit > 0 ? count(view.tokenLimit) : undefined,
  );
}

/** A closed poll the fan did not vote in. */
export function closedAction(strings: CardStrings): TemplateResult {
  return html`<div part="actions"><span class="note">${words(strings).votingClosed}</span></div>`;
}

/** Under a long poll's first answers: shows them all (the vote button stays near, below). */
export function showAll(count: number, strings: CardStrings, expand: () => void): TemplateResult {
  return html`<button class="show-all" part="show-all" type="button" @click=${expand}>
    ${words(strings).showAll(formatCount(count))}
  </button>`;
}
