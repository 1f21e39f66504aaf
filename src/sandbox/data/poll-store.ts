import type { Clock } from '../clock.ts';
import { sandboxChoices } from '../choices.ts';
import { findFanById } from './fans.ts';
import { tallyPoll, phaseAt, voteStatusAt, type PollTally } from './poll-tally.ts';
import type { StoredPoll, StoredVote, VoteStatus } from './poll-types.ts';
import { seedPolls } from './seed-polls.ts';
import { checkVote, VoteRefusal } from './vote-rules.ts';

export interface FanVote {
  readonly answerId: string;
  readonly status: VoteStatus;
}

/** The sandbox's polls and votes, seeded relative to the clock; every number is derived at read time. */
export class PollStore {
  #polls: StoredPoll[] = [];
  #rejectNext = 0;

  constructor(
    private readonly clock: Clock,
    /** How long a vote stays `pending` before the simulated chain confirms it. */
    public voteConfirmationMs: number = sandboxChoices.voteConfirmationMs,
  ) {
    this.reset();
  }

  /** Seeds the polls again relative to the clock's now, dropping every vote cast since. */
  reset(): void {
    this.#polls = seedPolls(this.clock.now());
    this.#rejectNext = 0;
  }

  /** Polls visible on the API: published ones (`hideUnpublishedPolls` in choices.ts). */
  published(): StoredPoll[] {
    const now = this.clock.now();
    return this.#polls.filter((poll) => poll.publicationDate <= now);
  }

  /** Every poll, published or not, for the control surface and tests. */
  all(): readonly StoredPoll[] {
    return this.#polls;
  }

  find(pollId: string): StoredPoll | undefined {
    return this.published().find((poll) => poll.id === pollId);
  }

  openPolls(): StoredPoll[] {
    const now = this.clock.now();
    return this.published().filter((poll) => phaseAt(poll, now) === 'open');
  }

  tally(poll: StoredPoll): PollTally {
    return tallyPoll(poll, this.clock.now(), this.voteConfirmationMs);
  }

  /** The fan's latest vote in a poll and its status now. */
  voteOf(poll: StoredPoll, userId: string): FanVote | undefined {
    const now = this.clock.now();
    const vote = poll.votes.findLast((candidate) => candidate.userId === userId && candidate.castAt <= now);
    return vote && { answerId: vote.answerId, status: voteStatusAt(vote, now, this.voteConfirmationMs) };
  }

  /** Records a fan's vote if the rules allow it; throws a `VoteRefusal` otherwise. */
  vote(pollId: string, userId: string, answerId: string): StoredVote {
    const poll = this.find(pollId);
    if (!poll) throw new VoteRefusal('poll_not_found', `Poll ${pollId} not found.`);
    const fan = findFanById(userId);
    const weight = checkVote({
      poll,
      phase: phaseAt(poll, this.clock.now()),
      fan,
      answerId,
      previousVote: this.voteOf(poll, userId)?.status,
    });
    const endsRejected = fan?.votesEndRejected === true || this.#takeRejection();
    return this.#record(poll, { userId, answerId, weight, castAt: this.clock.now(), endsRejected });
  }

  /** A simulated fan's vote: no rules beyond an open poll and a known answer (the simulation picks both). */
  recordSimulatedVote(poll: StoredPoll, answerId: string, userId: string, weight: number): StoredVote {
    return this.#record(poll, { userId, answerId, weight, castAt: this.clock.now(), endsRejected: false });
  }

  /** The next `count` fan votes end `rejected` once confirmed. */
  rejectNextVotes(count: number): void {
    this.#rejectNext = Math.max(0, Math.floor(count));
  }

  get pendingRejections(): number {
    return this.#rejectNext;
  }

  #takeRejection(): boolean {
    if (this.#rejectNext <= 0) return false;
    this.#rejectNext -= 1;
    return true;
  }

  #record(poll: StoredPoll, vote: StoredVote): StoredVote {
    poll.votes.push(vote);
    return vote;
  }
}
