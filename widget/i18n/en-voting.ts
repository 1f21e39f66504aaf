import type { VotingStrings } from './strings.ts';

/** English words of the card's voting (`fan-voting.ts`). */
export const enVoting: VotingStrings = {
  signingIn: 'Signing in…',
  vote: 'Vote',
  voting: 'Voting…',
  confirmInExtension: 'Confirm in Fan Polls…',
  viaExtension: 'You confirm votes in Fan Polls.',
  voteCancelled: 'Vote cancelled: nothing sent.',
  chooseAnswer: 'Choose an answer',
  votedFor: (a) => `You voted for ${a}`,
  voteStatus: (s) => (s === 'pending' ? 'being confirmed' : s === 'accepted' ? 'confirmed' : s),
  rejected: 'Your vote was rejected',
  notHolder: (club) => `Only ${club} fan token holders can vote`,
  errorVote: 'Your vote could not be sent.',
  alreadyVoted: 'You have already voted in this poll.',
  voteRefused: 'The platform did not accept this vote.',
  signInCancelled: 'Sign-in was cancelled. You can try again.',
  signInFailed: 'Sign-in did not work. Please try again.',
  popupBlocked: 'Your browser blocked the sign-in window. Allow pop-ups for this site and try again.',
};
