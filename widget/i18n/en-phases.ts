import type { PhaseStrings } from './strings.ts';

/** English words of the phases other than open and of the results (`phase-details.ts`), in the element code. */
export const enPhases: PhaseStrings = {
  upcoming: 'Upcoming',
  closed: 'Closed',
  disclosed: 'Results',
  cancelled: 'Cancelled',
  unknownStatus: 'Not open for votes',
  opensIn: (d) => `Opens in ${d}`,
  tokens: (used, limit) =>
    `Weighted by fan tokens: ${used} so far${limit ? `, at most ${limit} for one fan` : ''}`,
  yourVote: 'Your vote',
  winner: (a) => `Winner: ${a}`,
  tie: (a) => `Tie: ${a}`,
  noVotes: 'No votes were cast.',
  resultsIn: (d) => `Results in ${d}`,
  cancelledNote: 'This poll was cancelled: it takes no votes.',
  showAll: (n) => `Show all ${n} answers`,
  votingClosed: 'Voting is closed',
};
