/** The sandbox's own record of a poll: dates as epoch milliseconds, votes as individual records. */

export interface StoredAnswer {
  readonly id: string;
  readonly text: string;
  /** Tokens and voters from before the sandbox started (seeded history), so that counts look real. */
  readonly seededTokens: number;
  readonly seededVoters: number;
}

export interface StoredVote {
  /** A seeded fan's user id, or a simulated fan's made-up id. */
  readonly userId: string;
  readonly answerId: string;
  /** The fan's tokens, capped by the poll's `tokenLimit`. */
  readonly weight: number;
  readonly castAt: number;
  /** Decided when cast, shown once the vote is confirmed. */
  readonly endsRejected: boolean;
}

export interface StoredPoll {
  readonly id: string;
  readonly partnerId: string;
  readonly question: string;
  readonly information: string;
  readonly type: string;
  readonly publicationDate: number;
  readonly openAt: number;
  readonly closeAt: number;
  readonly disclosedAt: number;
  readonly isBound: boolean;
  /** Decimal string, a fraction (`"0.2"`), as the platform sends it. */
  readonly quorum: string;
  /** The club's circulating fan tokens: what `quorum` and `currentQuorumPercentage` are fractions of. */
  readonly eligibleTokenSupply: number;
  readonly tokenLimit: number;
  readonly cancelled: boolean;
  readonly blockchainAddress: string;
  readonly answers: readonly StoredAnswer[];
  readonly votes: StoredVote[];
}

export type PollPhase = 'scheduled' | 'open' | 'closed' | 'disclosed' | 'cancelled';
export type VoteStatus = 'pending' | 'accepted' | 'rejected';
