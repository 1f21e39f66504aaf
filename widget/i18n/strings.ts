/**
 * Every word the card shows whatever the fan does, by key; each language supplies them all (the type makes a
 * missing one a compile error).
 */
export interface CardStrings {
  readonly loading: string;
  readonly upcoming: string;
  readonly open: string;
  readonly closed: string;
  readonly disclosed: string;
  readonly cancelled: string;
  readonly unknownStatus: string;
  readonly opensIn: (duration: string) => string;
  readonly closesIn: (duration: string) => string;
  /** `count` formatted for the locale; `plural` its plural category there (`Intl.PluralRules`). */
  readonly votes: (count: string, plural: Intl.LDMLPluralRule) => string;
  /** Tokens used in the poll; `limit`, when the poll has one, caps ONE fan's vote weight (not a poll total). */
  readonly tokens: (used: string, limit: string | undefined) => string;
  readonly quorum: (current: string, required: string) => string;
  readonly quorumReached: string;
  readonly binding: string;
  readonly notBinding: string;
  readonly leading: string;
  readonly signIn: string;
  readonly votingClosed: string;
  readonly errorLoad: string;
  /** The platform does not know the poll: no retry is offered, none could help. */
  readonly errorNotFound: string;
  readonly retry: string;
  readonly frameTitle: (question: string) => string;
  readonly listEmpty: string;
  readonly listLabel: string;
}

/** Words only the card's voting shows (`fan-voting.ts`): English's in `en-voting.ts`, other languages' in their chunk. */
export interface VotingStrings {
  readonly signingIn: string;
  readonly vote: string;
  readonly voting: string;
  /** While the extension's confirmation window is open. */
  readonly confirmInExtension: string;
  /** Under the button when votes go through the extension. */
  readonly viaExtension: string;
  readonly voteCancelled: string;
  readonly chooseAnswer: string;
  readonly votedFor: (answer: string) => string;
  readonly voteStatus: (status: string) => string;
  readonly rejected: string;
  readonly notHolder: (club: string) => string;
  readonly errorVote: string;
  readonly alreadyVoted: string;
  readonly voteRefused: string;
  readonly signInCancelled: string;
  readonly signInFailed: string;
  readonly popupBlocked: string;
}

/** What a lazily loaded language supplies: both sets. */
export type LanguageStrings = CardStrings & VotingStrings;
