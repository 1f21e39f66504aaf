/**
 * The platform's resources as Fan Polls holds them after tolerant parsing (see parse.ts). Decimals stay strings, as
 * the platform sends them; enum-like fields (`status`, `type`, `voteStatus`) are open strings because their full
 * sets are not public. Fields the platform may leave out are optional.
 */

export interface PartnerImage {
  readonly url: string;
  readonly type?: string;
  readonly format?: string;
  readonly width?: string;
  readonly height?: string;
}

export interface Answer {
  readonly id: string;
  readonly answer: string;
  /** Decimal string, a percentage as the platform computes it (e.g. `"42.5"`). */
  readonly votePercentage: string;
  readonly totalVoteTokensUsed: number;
  readonly statistics: { readonly uniqueAnswerVoteCount: number };
  /** User-context responses only. Known values: `rejected`; the sandbox also sends `pending` and `accepted`. */
  readonly voteStatus?: string;
}

export interface Poll {
  readonly id: string;
  readonly partnerId: string;
  readonly partnerName: string;
  readonly partnerImages: readonly PartnerImage[];
  readonly question: string;
  /** ISO 8601 date-time strings, as sent; absent when the platform left them out or null. */
  readonly openAt?: string;
  readonly publicationDate?: string;
  readonly closeAt?: string;
  readonly disclosedAt?: string;
  /** Public (non-user) responses only. Known value: `engagement`. */
  readonly type?: string;
  readonly isBound: boolean;
  readonly isQuorumReached: boolean;
  /** Decimal string: the required fraction of votes (`"0.2"`), not a percentage. */
  readonly quorum: string;
  /** Decimal string: the fraction reached so far. */
  readonly currentQuorumPercentage: string;
  readonly usedTokenCount: number;
  readonly tokenLimit: number;
  /** Known value: `cancelled`. Anything else is kept as sent. */
  readonly status: string;
  readonly information: string;
  readonly answers: readonly Answer[];
  readonly statistics: { readonly uniqueVoteCount: number };
  /** User-context responses only: whether the signed-in fan has voted. */
  readonly userVote?: boolean;
  readonly blockchainAddress?: string;
}

export interface CurrentUser {
  readonly userId: string;
}

/** Which token a route takes: the application's own (client credentials) or a fan's (authorization code). */
export type TokenKind = 'application' | 'user';
