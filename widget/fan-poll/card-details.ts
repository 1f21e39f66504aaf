/**
 * Everything a card shows after an open poll's first paint, as one lazily imported chunk (`details-part.ts`): the
 * other phases and the results, the fan's session with the page's proxy, the account line, and their styles.
 */
export * from './phase-details.ts';
export { renderAccount } from './account-menu.ts';
export { renderActionArea } from './action-area.ts';
export { followSession } from './session-follow.ts';
export { detailStyles } from './card-details.styles.ts';
export { pageSession, type FanSession, type PageSession } from '../session/page-session.ts';
export {
  actionError,
  followVoteStatus,
  renderOutcome,
  signInFailure,
  votedText,
  voteFailure,
} from './vote-outcome.ts';
export { followPage, loadFan, signIn, vote } from '../voting/fan-acts.ts';
export { popupSignIn } from '../voting/popup-sign-in.ts';
