import type { Poll } from '../platform/types.ts';
import { choosePartnerLogo } from './partner-logo.ts';
import { largestRemainderPercentages } from './percentages.ts';
import { pollTimeline, type PollPhase } from './poll-phase.ts';

export type { PollPhase } from './poll-phase.ts';

export interface AnswerView {
  readonly id: string;
  readonly text: string;
  /** Token-weighted share, rounded to `decimals`; the answers add up to exactly 100 when anyone voted, else all 0. */
  readonly percentage: number;
  readonly tokens: number;
  readonly uniqueVotes: number;
  /** The single answer with the most tokens; no answer leads on a tie for first or when nobody voted. */
  readonly isLeading: boolean;
  /** User context only: the platform's status of the fan's vote on this answer (`rejected`, ...), as sent. */
  readonly voteStatus?: string;
}

export interface QuorumView {
  /** Required fraction of votes (`0.2`). */
  readonly required: number;
  /** Fraction reached so far. */
  readonly current: number;
  readonly reached: boolean;
  /** 0..1 of the required fraction. */
  readonly progress: number;
}

export interface FanVoteView {
  readonly voted: boolean;
  readonly answerId?: string;
  readonly voteStatus?: string;
}

export interface PollView {
  readonly id: string;
  readonly question: string;
  readonly partnerName: string;
  /** `https:` (or `http:` on loopback) only; absent when the platform sent no safe image. */
  readonly logoUrl?: string;
  readonly phase: PollPhase;
  /** The platform's status, as sent: show it read-only when the phase does not explain it. */
  readonly status: string;
  readonly opensInMs?: number;
  readonly closesInMs?: number;
  /** Milliseconds until the results are disclosed; only while closed with a disclosure date ahead. */
  readonly disclosesInMs?: number;
  readonly answers: readonly AnswerView[];
  readonly leadingAnswerId?: string;
  readonly uniqueVotes: number;
  readonly usedTokens: number;
  readonly tokenLimit: number;
  readonly quorum: QuorumView;
  readonly isBound: boolean;
  readonly information: string;
  /** The poll's record on its chain, as the platform sent it (a partner's `verify-href` links it); may be absent. */
  readonly blockchainAddress?: string | undefined;
  /** User context only (the poll came from a user route). */
  readonly fanVote?: FanVoteView;
}

export interface ViewOptions {
  /** Decimals of the shown percentages, 0..4; default 0. */
  readonly decimals?: number;
}

/** What a card shows for `poll` at `nowMs`. Pure: the same poll and instant always give the same view. */
export function viewPoll(poll: Poll, nowMs: number, options: ViewOptions = {}): PollView {
  const timeline = pollTimeline(poll, nowMs);
  const tokens = poll.answers.map((answer) => nonNegative(answer.totalVoteTokensUsed));
  const percentages = largestRemainderPercentages(tokens, options.decimals ?? 0);
  const leadingAnswerId = leadingAnswer(poll, tokens);
  const logoUrl = choosePartnerLogo(poll.partnerImages);
  const fanVote = fanVoteOf(poll);

  const answers = poll.answers.map((answer, index): AnswerView => ({
    id: answer.id,
    text: answer.answer,
    percentage: percentages[index] ?? 0,
    tokens: tokens[index] ?? 0,
    uniqueVotes: nonNegative(answer.statistics.uniqueAnswerVoteCount),
    isLeading: answer.id === leadingAnswerId,
    ...(answer.voteStatus === undefined ? {} : { voteStatus: answer.voteStatus }),
  }));

  return {
    id: poll.id,
    question: poll.question,
    partnerName: poll.partnerName,
    ...(logoUrl === undefined ? {} : { logoUrl }),
    phase: timeline.phase,
    status: poll.status,
    ...(timeline.opensInMs === undefined ? {} : { opensInMs: timeline.opensInMs }),
    ...(timeline.closesInMs === undefined ? {} : { closesInMs: timeline.closesInMs }),
    ...(timeline.phase === 'closed' && timeline.nextChangeAt !== undefined
      ? { disclosesInMs: timeline.nextChangeAt - nowMs }
      : {}),
    answers,
    ...(leadingAnswerId === undefined ? {} : { leadingAnswerId }),
    uniqueVotes: nonNegative(poll.statistics.uniqueVoteCount),
    usedTokens: nonNegative(poll.usedTokenCount),
    tokenLimit: nonNegative(poll.tokenLimit),
    quorum: viewQuorum(poll),
    isBound: poll.isBound,
    information: poll.information,
    blockchainAddress: poll.blockchainAddress,
    ...(fanVote === undefined ? {} : { fanVote }),
  };
}

/**
 * Quorum from the platform's fraction strings. Whether it is reached is the platform's fact (`isQuorumReached`), never
 * derived from the numbers: with a required quorum of 0 and no vote yet, the platform says not reached, and so does
 * the card. Progress follows the numbers, up to 1, and is full once the platform says reached.
 */
export function viewQuorum(
  poll: Pick<Poll, 'quorum' | 'currentQuorumPercentage' | 'isQuorumReached'>,
): QuorumView {
  const required = fraction(poll.quorum);
  const current = fraction(poll.currentQuorumPercentage);
  const reached = poll.isQuorumReached;
  const progress = reached ? 1 : required > 0 ? Math.min(1, Math.max(0, current / required)) : 0;
  return { required, current, reached, progress };
}

function leadingAnswer(poll: Poll, tokens: readonly number[]): string | undefined {
  const most = Math.max(0, ...tokens);
  if (most === 0) return undefined;
  const leaders = poll.answers.filter((_, index) => tokens[index] === most);
  return leaders.length === 1 ? leaders[0]?.id : undefined;
}

/** The fan's vote in user context: `userVote` says whether, the answer carrying a `voteStatus` says which. */
function fanVoteOf(poll: Poll): FanVoteView | undefined {
  const chosen = poll.answers.find(
    (answer) => typeof answer.voteStatus === 'string' && answer.voteStatus !== '',
  );
  if (poll.userVote === undefined && chosen === undefined) return undefined;
  return {
    voted: poll.userVote ?? true,
    ...(chosen === undefined ? {} : { answerId: chosen.id }),
    ...(chosen?.voteStatus === undefined ? {} : { voteStatus: chosen.voteStatus }),
  };
}

/** A decimal string as a fraction in 0..1; anything unreadable is 0. */
function fraction(value: string): number {
  const parsed = Number.parseFloat(value);
  return Number.isFinite(parsed) ? Math.min(1, Math.max(0, parsed)) : 0;
}

function nonNegative(value: number): number {
  return Number.isFinite(value) && value > 0 ? value : 0;
}
