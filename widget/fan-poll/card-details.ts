/**
 * Everything a card shows after its first paint, as one lazily imported chunk (`details-part.ts`): the fan's session
 * with the page's proxy (and its vote channel), their vote and its outcome, the account line, a failed read, and their
 * styles. No phase's
 * first paint waits for it (`phase-details.ts` is in the element code).
 */
export { renderError, warnMisconfigured } from './card-trouble.ts';
export { followCurrent } from './follow-current.ts';
export { renderAccount } from './account-menu.ts';
export { actionArea } from './action-area.ts';
export { renderNextStep } from './next-step.ts';
export { followSession } from '../voting/session-follow.ts';
export { detailStyles } from './card-details.styles.ts';
export { pageSession, type FanSession, type PageSession } from '../session/page-session.ts';
export {
  actionError,
  followVoteStatus,
  renderOutcome,
  signInFailure,
  votedText,
  voteFailure,
} from '../voting/vote-outcome.ts';
export { followPage, loadFan, signIn, vote } from '../voting/fan-acts.ts';
export { popupSignIn } from '../voting/popup-sign-in.ts';
export { proxyVoteChannel } from '../voting/proxy-channel.ts';
