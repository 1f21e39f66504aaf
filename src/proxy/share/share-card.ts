import type { Poll } from '../../platform/types.ts';
import type { DrawnCardQuery } from '../../contracts/drawn-card-contract.ts';
import { viewPoll, type PollPhase, type PollView } from '../../polls/poll-view.ts';

/** Longest question or answer text drawn or put in a meta tag (in characters); longer text is cut with "…". */
const shareTextMaxLength = 200;
/** Answers drawn in the image; more are summed up as "+ N more answers". */
export const shareImageMaxAnswers = 4;

export interface ShareAnswer {
  readonly text: string;
  /** The token-weighted share, only where the results may show (`sharesShown`). */
  readonly percentage?: number;
  readonly isLeading: boolean;
}

/** What a shared poll shows a stranger (no fan, no vote): the share page's meta tags and the share image. */
export interface ShareCard {
  readonly pollId: string;
  readonly question: string;
  readonly partnerName: string;
  /** The club's initials, for the badge drawn in place of its logo (the image is drawn with no network). */
  readonly initials: string;
  readonly phase: PollPhase;
  /** The phase in a few English words ("Open: vote now"). */
  readonly phaseText: string;
  /** Every answer; with percentages only where the results may show. */
  readonly answers: readonly ShareAnswer[];
  readonly resultsShown: boolean;
  /** The leading answer and its share, where the results show and one answer leads. */
  readonly leading?: { readonly text: string; readonly percentage: number };
}

const phaseWords: Readonly<Record<PollPhase, string>> = {
  upcoming: 'Opens soon',
  open: 'Open: vote now',
  closed: 'Closed: results to come',
  disclosed: 'Results',
  cancelled: 'Cancelled',
  unknown: 'Fan poll',
};

/**
 * Whether a stranger sees an open poll's shares: the card's rule for a visitor who has not voted (`results` of
 * `<fan-poll>`, docs/embedding.md): always by default, with `after-vote`/`after-close` only once the poll closed.
 * Upcoming, cancelled and unknown polls show none.
 */
export function sharesShown(phase: PollPhase, results: DrawnCardQuery['results']): boolean {
  if (phase === 'closed' || phase === 'disclosed') return true;
  return phase === 'open' && results === undefined;
}

/** Bidirectional overrides, embeddings, isolates and marks: a platform string could turn a preview's text around. */
const bidiControls = /[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * `text` on one line without bidirectional controls, cut to `max` characters (code points, so no emoji or surrogate
 * pair is split), "…" marking the cut.
 */
export function clampText(text: string, max = shareTextMaxLength): string {
  const characters = Array.from(text.replace(bidiControls, '').replace(/\s+/g, ' ').trim());
  return characters.length <= max ? characters.join('') : `${characters.slice(0, max - 1).join('')}…`;
}

/** Up to two initials of the club's name ("Riverside FC" → "RF"); "?" when it has no letter. */
export function initialsOf(name: string): string {
  const letters = name
    .split(/\s+/)
    .map((word) => Array.from(word).find((character) => /[\p{L}\p{N}]/u.test(character)))
    .filter((letter): letter is string => letter !== undefined);
  return letters.slice(0, 2).join('').toLocaleUpperCase() || '?';
}

/** The share card of `poll` at `now`, with the results setting of the link. */
export function shareCardOf(poll: Poll, now: number, results: DrawnCardQuery['results']): ShareCard {
  const view: PollView = viewPoll(poll, now);
  const resultsShown = sharesShown(view.phase, results);
  const answers = view.answers.map((answer): ShareAnswer => ({
    text: clampText(answer.text),
    isLeading: resultsShown && answer.isLeading,
    ...(resultsShown ? { percentage: answer.percentage } : {}),
  }));
  const leader = view.answers.find((answer) => answer.isLeading);
  return {
    pollId: view.id,
    question: clampText(view.question),
    partnerName: clampText(view.partnerName, 80),
    initials: initialsOf(view.partnerName),
    phase: view.phase,
    phaseText: phaseWords[view.phase],
    answers,
    resultsShown,
    ...(resultsShown && leader !== undefined
      ? { leading: { text: clampText(leader.text), percentage: leader.percentage } }
      : {}),
  };
}

/** The share page's description: the club, the phase, then the leading answer and its share where the results show. */
export function shareDescription(card: ShareCard): string {
  return [
    card.partnerName === '' ? 'Fan poll' : `${card.partnerName} fan poll`,
    card.phaseText,
    ...(card.leading === undefined ? [] : [`Leading: ${card.leading.text} (${card.leading.percentage}%)`]),
  ].join(' · ');
}
