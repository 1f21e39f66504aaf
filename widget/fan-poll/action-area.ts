import { html, nothing, type TemplateResult } from 'lit';
import type { ActionErrorKey } from '../i18n/detail-words.ts';
import type { CardStrings } from '../i18n/strings.ts';
import type { PageSession } from '../session/page-session.ts';
import type { PollView } from '../store/poll-model.ts';
import { renderAccount, type AccountActions } from './account-menu.ts';
import type { FanAction, FanState } from '../voting/fan-action.ts';
import { detailWords } from '../i18n/detail-words.ts';
import { enVoting } from '../i18n/en-voting.ts';
import { actionError, renderOutcome } from '../voting/vote-outcome.ts';

/** What the action area shows of the card's voting (`FanVoteController`). */
export interface ActionAreaSource extends AccountActions {
  /** The page's session, when the card votes through the proxy. */
  readonly session: PageSession | undefined;
  readonly voteError: ActionErrorKey | undefined;
  readonly fan: FanState;
  act(kind: 'sign-in'): void;
}

/**
 * What the details chunk puts in the fan's action area (`fan-actions.ts` holds the area's one template): the card's
 * button, its own "Continue to sign in", or the vote's outcome; the last action's error; the account line, below the
 * area, for a signed-in fan. A tuple: the element code that reads it is in the first-paint budget.
 */
export type ActionAreaParts = readonly [
  content: TemplateResult | undefined,
  status: TemplateResult | typeof nothing,
  account: TemplateResult | typeof nothing,
];

/**
 * The fan's action area once the details chunk is here: the card's button (`button`, for sign-in and vote; its own
 * "Continue to sign in" for a sign-in without a pop-up) or the outcome, the last action's error, and the account line.
 */
export function actionArea(
  source: ActionAreaSource,
  view: PollView,
  action: FanAction,
  strings: CardStrings,
  button: TemplateResult | undefined,
): ActionAreaParts {
  const content =
    action.kind === 'not-holder' || action.kind === 'voted' || action.kind === 'rejected'
      ? renderOutcome(view, action, strings)
      : action.kind === 'sign-in' && source.fan.redirectSignIn
        ? renderContinueSignIn(source, view, strings)
        : button;
  const session = source.session;
  const fan = session?.current;
  const error = source.voteError && actionError(source.voteError, strings);
  return [
    content,
    error ? html`<span part="status" class="note">${error}</span>` : nothing,
    session && fan?.state === 'signed-in' ? renderAccount(session, fan.userId, strings, source) : nothing,
  ];
}

/** The sign-in without a pop-up: one step, the page goes to the sign-in and comes back here. */
function renderContinueSignIn(
  source: ActionAreaSource,
  view: PollView,
  strings: CardStrings,
): TemplateResult {
  const words = { ...enVoting, ...detailWords(strings) };
  return html`<button
      part="button"
      type="button"
      @click=${() => {
        source.act('sign-in');
      }}
    >
      ${words.continueSignIn}</button
    ><span class="note">${words.forHolders(view.partnerName)}</span>`;
}
