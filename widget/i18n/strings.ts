/**
 * Every word an open card shows at first paint, by key; each language supplies them all (the type makes a
 * missing one a compile error).
 */
export interface CardStrings {
  readonly loading: string;
  readonly open: string;
  readonly closesIn: (duration: string) => string;
  /** `count` formatted for the locale; `plural` its plural category there (`Intl.PluralRules`). */
  readonly votes: (count: string, plural: Intl.LDMLPluralRule) => string;
  /** Turnout so far and the turnout the quorum needs, both formatted percentages. */
  readonly quorum: (current: string, required: string) => string;
  readonly quorumReached: (required: string) => string;
  /** What the quorum bar shows, beside it. */
  readonly quorumLegend: string;
  /** `isBound`: the club must follow the result. */
  readonly binding: string;
  readonly notBinding: string;
  readonly signIn: string;
  readonly frameTitle: (question: string) => string;
  readonly listEmpty: string;
  readonly listLabel: string;
}

/**
 * Words of the phases other than open and of the results, which a card shows at first paint too: English's in
 * `en-phases.ts`, in the element code; other languages' in their chunk.
 */
export interface PhaseStrings {
  readonly upcoming: string;
  readonly closed: string;
  readonly disclosed: string;
  readonly cancelled: string;
  readonly unknownStatus: string;
  readonly opensIn: (duration: string) => string;
  /** Tokens used in the poll; `limit`, when the poll has one, caps ONE fan's vote weight (not a poll total). */
  readonly tokens: (used: string, limit: string | undefined) => string;
  /** Beside the fan's own answer. */
  readonly yourVote: string;
  /** Disclosed results: the one answer with the most tokens. */
  readonly winner: (answer: string) => string;
  /** Disclosed results: two or more answers share the most tokens (`answers` already joined for the locale). */
  readonly tie: (answers: string) => string;
  readonly noVotes: string;
  /** Closed, results not disclosed yet. */
  readonly resultsIn: (duration: string) => string;
  readonly cancelledNote: string;
  /** A long poll's button that shows every answer. */
  readonly showAll: (count: string) => string;
  readonly votingClosed: string;
}

/**
 * Words of the card's details chunk (`card-details.ts`): a failed read, the fan's vote and refusals, the account
 * line. English's in `en-details.ts`, loaded with the chunk; other languages' in their chunk.
 */
export interface DetailStrings {
  readonly errorLoad: string;
  /** The platform does not know the poll: no retry is offered, none could help. */
  readonly errorNotFound: string;
  readonly retry: string;
  /** Said to screen readers when a `current` card switches by itself to its club's new current poll. */
  readonly nowShowing: (question: string) => string;
  /** The link to the partner's next step after the vote (`next-href`), when the partner gave no `next-label`. */
  readonly nextStep: string;
  /** The link a fan without the club's tokens gets (`get-tokens-href`). */
  readonly getTokens: (club: string) => string;
  /** The link from a closed or disclosed poll to its record on the chain (`verify-href`). */
  readonly checkResult: string;
  /** The card's share action, once the fan voted or the poll closed. */
  readonly share: string;
  /** Said once the share link was copied (no share sheet in this browser). */
  readonly linkCopied: string;
  readonly voteCancelled: string;
  readonly chooseAnswer: string;
  readonly votedFor: (answer: string) => string;
  readonly voteStatus: (status: string) => string;
  readonly rejected: string;
  readonly notHolder: (club: string) => string;
  /** What a fan told they may not vote can do. */
  readonly notHolderNext: string;
  readonly signOutFailed: string;
  readonly errorVote: string;
  readonly alreadyVoted: string;
  readonly voteRefused: string;
  readonly signInCancelled: string;
  readonly signInFailed: string;
  /** The club's side is briefly down (its proxy's shared state): nothing was sent, the fan's pick stays for a retry. */
  readonly votingUnavailable: string;
  /** The button of a sign-in without a pop-up: the page goes to the sign-in and comes back. */
  readonly continueSignIn: string;
  /** Under that button when the browser opened no sign-in window: what happens next. */
  readonly signInHere: string;
  readonly popupBlocked: string;
  /** Signed in at the platform, but the browser refuses the proxy's cookies on this page: what the fan can do. */
  readonly cookiesBlocked: string;
  /** The same, in a frame whose next sign-in click asks the browser to let it keep the fan signed in. */
  readonly cookiesAsk: string;
  /** The same, on a page whose next sign-in keeps the fan signed in for this page view (the session frame). */
  readonly cookiesFrame: string;
  readonly signedInAs: (user: string) => string;
  readonly signOut: string;
  readonly switchAccount: string;
}

/** Words of the card's voting at first paint (`fan-voting.ts`): English's in `en-voting.ts`, other languages' in their chunk. */
export interface VotingStrings {
  readonly signingIn: string;
  readonly vote: string;
  readonly voting: string;
  /** While the extension's confirmation window is open. */
  readonly confirmInExtension: string;
  /** Under the button when votes go through the extension. */
  readonly viaExtension: string;
  /** Before sign-in: who may vote. */
  readonly forHolders: (club: string) => string;
}

/** What a lazily loaded language supplies: every set. */
export type LanguageStrings = CardStrings & VotingStrings & PhaseStrings & DetailStrings;
