import type { VotingStrings } from './strings.ts';

/** English words of the card's voting (`fan-voting.ts`). */
export const enVoting: VotingStrings = {
  signingIn: 'Signing in…',
  vote: 'Vote',
  voting: 'Voting…',
  confirmInExtension: 'Confirm in Fan Polls…',
  viaExtension: 'You confirm votes in Fan Polls.',
  forHolders: (club) => `For ${club} token holders`,
};
