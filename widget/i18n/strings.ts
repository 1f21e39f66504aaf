/** Every word the card shows, by key; each language supplies them all (the type makes a missing one a compile error). */
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
  readonly votes: (count: string) => string;
  readonly tokens: (used: string, limit: string) => string;
  readonly quorum: (current: string, required: string) => string;
  readonly quorumReached: string;
  readonly binding: string;
  readonly notBinding: string;
  readonly leading: string;
  readonly answersLabel: string;
  readonly signIn: string;
  readonly signingIn: string;
  readonly vote: string;
  readonly voting: string;
  readonly chooseAnswer: string;
  readonly votedFor: (answer: string) => string;
  readonly voteStatus: (status: string) => string;
  readonly rejected: string;
  readonly notHolder: (club: string) => string;
  readonly votingClosed: string;
  readonly errorLoad: string;
  readonly errorVote: string;
  readonly signInCancelled: string;
  readonly signInFailed: string;
  readonly popupBlocked: string;
  readonly retry: string;
  readonly frameTitle: (question: string) => string;
  readonly listEmpty: string;
  readonly listLabel: string;
}
