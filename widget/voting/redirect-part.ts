/**
 * A sign-in without a pop-up, as one chunk (imported by `redirect-steps.ts` when a card offers that way, or when the
 * page came back from it): the way out and the way back share the fan's pick and the contract's facts.
 */
export { leaveForSignIn } from './redirect-sign-in.ts';
export { outcomeFor, signInReturned } from './redirect-return.ts';
