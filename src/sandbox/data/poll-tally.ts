import { sandboxChoices } from '../choices.ts';
import type { PollPhase, StoredAnswer, StoredPoll, StoredVote, VoteStatus } from './poll-types.ts';

/** A poll's numbers at one instant: what the API shows, derived from seeded history plus recorded votes. */
export interface PollTally {
  readonly phase: PollPhase;
  readonly usedTokenCount: number;
  readonly uniqueVoteCount: number;
  /** Fraction of the eligible supply, as a decimal string. */
  readonly currentQuorumPercentage: string;
  readonly isQuorumReached: boolean;
  readonly answers: readonly AnswerTally[];
}

export interface AnswerTally {
  readonly answer: StoredAnswer;
  readonly totalVoteTokensUsed: number;
  readonly uniqueAnswerVoteCount: number;
  readonly votePercentage: string;
}

export function phaseAt(poll: StoredPoll, now: number): PollPhase {
  if (poll.cancelled) return 'cancelled';
  if (now < poll.openAt) return 'scheduled';
  if (now < poll.closeAt) return 'open';
  if (now < poll.disclosedAt) return 'closed';
  return 'disclosed';
}

/** Pending until the simulated chain confirms it, then accepted or rejected as decided when cast. */
export function voteStatusAt(vote: StoredVote, now: number, confirmationMs: number): VoteStatus {
  if (now < vote.castAt + confirmationMs) return 'pending';
  return vote.endsRejected ? 'rejected' : 'accepted';
}

export function tallyPoll(poll: StoredPoll, now: number, confirmationMs: number): PollTally {
  const counted = poll.votes.filter(
    (vote) => vote.castAt <= now && voteStatusAt(vote, now, confirmationMs) !== 'rejected',
  );
  const perAnswer = poll.answers.map((answer) => {
    const votes = counted.filter((vote) => vote.answerId === answer.id);
    return {
      answer,
      totalVoteTokensUsed: answer.seededTokens + votes.reduce((sum, vote) => sum + vote.weight, 0),
      uniqueAnswerVoteCount: answer.seededVoters + votes.length,
    };
  });
  const usedTokenCount = perAnswer.reduce((sum, answer) => sum + answer.totalVoteTokensUsed, 0);
  const shares = percentages(
    perAnswer.map((answer) => answer.totalVoteTokensUsed),
    sandboxChoices.votePercentageDecimals,
  );
  const quorum = Number(poll.quorum);
  return {
    phase: phaseAt(poll, now),
    usedTokenCount,
    uniqueVoteCount: perAnswer.reduce((sum, answer) => sum + answer.uniqueAnswerVoteCount, 0),
    currentQuorumPercentage: fractionString(
      usedTokenCount / poll.eligibleTokenSupply,
      sandboxChoices.quorumDecimals,
    ),
    isQuorumReached: usedTokenCount > 0 && usedTokenCount >= quorum * poll.eligibleTokenSupply,
    answers: perAnswer.map((answer, index) => ({ ...answer, votePercentage: shares[index] ?? '0.00' })),
  };
}

/**
 * Shares of a total as percentage strings with `decimals` places that add up to exactly 100 (largest remainder
 * method), or all zero when nothing was counted.
 */
export function percentages(values: readonly number[], decimals: number): string[] {
  const total = values.reduce((sum, value) => sum + value, 0);
  const unit = 10 ** decimals;
  if (total <= 0) return values.map(() => (0).toFixed(decimals));
  const exact = values.map((value) => (value * 100 * unit) / total);
  const floors = exact.map(Math.floor);
  let missing = 100 * unit - floors.reduce((sum, value) => sum + value, 0);
  const byRemainder = exact
    .map((value, index) => ({ index, remainder: value - Math.floor(value) }))
    .sort((a, b) => b.remainder - a.remainder || a.index - b.index);
  for (const { index } of byRemainder) {
    if (missing <= 0) break;
    floors[index] = (floors[index] ?? 0) + 1;
    missing -= 1;
  }
  return floors.map((units) => (units / unit).toFixed(decimals));
}

/** A fraction as the platform writes decimals: at most `decimals` places, no trailing zeros (`"0.2"`, `"0"`). */
export function fractionString(value: number, decimals: number): string {
  return String(Number(value.toFixed(decimals)));
}
