import type { DetailStrings } from './strings.ts';

/** English words of the card's details chunk (`card-details.ts`), loaded with it. */
export const enDetails: DetailStrings = {
  voteCancelled: 'Vote cancelled: nothing sent.',
  chooseAnswer: 'Choose an answer',
  votedFor: (a) => `You voted for ${a}`,
  voteStatus: (s) => (s === 'pending' ? 'being confirmed' : s === 'accepted' ? 'confirmed' : s),
  rejected: 'Your vote was rejected',
  notHolder: (club) => `Only ${club} fan token holders can vote.`,
  notHolderNext: 'Get the club’s fan tokens in the Socios.com app, or sign in with another account.',
  signOutFailed: 'Sign-out did not work. Please try again.',
  errorVote: 'Your vote could not be sent.',
  alreadyVoted: 'You have already voted in this poll.',
  voteRefused: 'The platform did not accept this vote.',
  signInCancelled: 'Sign-in was cancelled. You can try again.',
  signInFailed: 'Sign-in did not work. Please try again.',
  votingUnavailable: 'Voting is briefly unavailable. Please try again in a moment.',
  continueSignIn: 'Continue to sign in',
  signInHere:
    'This browser did not open the sign-in window. Sign in on the next page instead: it brings you back here to vote.',
  popupBlocked: 'Your browser blocked the sign-in window. Allow pop-ups for this site and try again.',
  cookiesBlocked:
    'Your browser does not let this site keep you signed in. Vote on the club’s own site, or allow cookies for this site.',
  cookiesFrame:
    'Your browser does not keep you signed in across sites. Tap “Sign in to vote” again to sign in for this page.',
  cookiesAsk:
    'Your browser asks before this poll may keep you signed in. Tap “Sign in to vote” again, then allow it.',
  signedInAs: (user) => `Signed in as ${user}`,
  signOut: 'Sign out',
  switchAccount: 'Switch account',
  errorLoad: 'This poll could not be loaded.',
  errorNotFound: 'This poll does not exist or is no longer available.',
  retry: 'Retry',
  nowShowing: (question) => `Now showing the club’s current poll: ${question}`,
  nextStep: 'What’s next',
  getTokens: (club) => `Get ${club} fan tokens`,
  checkResult: 'Check this result',
  share: 'Share this poll',
  linkCopied: 'Link copied',
};
