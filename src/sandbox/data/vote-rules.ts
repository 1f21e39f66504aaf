import { sandboxChoices } from '../choices.ts';
import type { Fan } from './fans.ts';
import type { PollPhase, StoredPoll, VoteStatus } from './poll-types.ts';

export type VoteRefusalCode = keyof typeof sandboxChoices.voteRefusals;

/** Why the sandbox refused a vote; `status` is the HTTP status the API answers with (see choices.ts). */
export class VoteRefusal extends Error {
  override readonly name = 'VoteRefusal';
  readonly status: number;

  constructor(
    readonly code: VoteRefusalCode,
    description: string,
    options?: ErrorOptions,
  ) {
    super(description, options);
    this.status = sandboxChoices.voteRefusals[code];
  }
}

export interface VoteAttempt {
  readonly poll: StoredPoll;
  readonly phase: PollPhase;
  /** Undefined when the user id is not a seeded fan: such a user holds nothing. */
  readonly fan: Fan | undefined;
  readonly answerId: string;
  /** Status of the fan's latest vote in this poll, if any. */
  readonly previousVote: VoteStatus | undefined;
}

/**
 * The vote rules, in the order the API checks them: a known answer, an open poll, a holder of the poll partner's
 * fan tokens, one counted vote per poll (a rejected vote never reached the chain, so the fan may vote again).
 * Returns the vote's weight: the fan's tokens, capped by the poll's `tokenLimit`.
 */
export function checkVote(attempt: VoteAttempt): number {
  const { poll, phase, fan, answerId, previousVote } = attempt;
  if (!poll.answers.some((answer) => answer.id === answerId)) {
    throw new VoteRefusal('unknown_answer', `answerId ${answerId} is not an answer of poll ${poll.id}.`);
  }
  if (phase === 'cancelled') throw new VoteRefusal('poll_cancelled', `Poll ${poll.id} was cancelled.`);
  if (phase === 'scheduled') throw new VoteRefusal('poll_not_open_yet', `Poll ${poll.id} is not open yet.`);
  if (phase !== 'open') throw new VoteRefusal('poll_closed', `Poll ${poll.id} is closed.`);
  const holding = fan?.holdings[poll.partnerId] ?? 0;
  if (holding <= 0) {
    throw new VoteRefusal('not_a_holder', `The user holds no fan tokens of partner ${poll.partnerId}.`);
  }
  if (previousVote === 'pending' || previousVote === 'accepted') {
    throw new VoteRefusal('already_voted', `The user has already voted in poll ${poll.id}.`);
  }
  return Math.min(holding, poll.tokenLimit);
}
