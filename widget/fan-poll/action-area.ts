import { html, nothing, type TemplateResult } from 'lit';
import type { ActionErrorKey } from '../i18n/detail-words.ts';
import type { CardStrings } from '../i18n/strings.ts';
import type { PageSession } from '../session/page-session.ts';
import type { PollView } from '../store/poll-model.ts';
import { renderAccount, type AccountActions } from './account-menu.ts';
import type { FanAction } from './fan-action.ts';
import { actionError, renderOutcome } from './vote-outcome.ts';

/** What the action area shows of the card's voting (`FanVoteController`). */
export interface ActionAreaSource extends AccountActions {
  /** The page's session, when the card votes through the proxy. */
  readonly session: PageSession | undefined;
  readonly voteError: ActionErrorKey | undefined;
}

/**
 * The fan's action area once the details chunk is here: the card's button (`button`, for sign-in and vote) or the
 * outcome, the last action's error, and the account line.
 */
export function renderActionArea(
  source: ActionAreaSource,
  view: PollView,
  action: FanAction,
  strings: CardStrings,
  button: TemplateResult | undefined,
): TemplateResult {
  const content =
    action.kind === 'not-holder' || action.kind === 'voted' || action.kind === 'rejected'
      ? renderOutcome(view, action, strings)
      : button;
  const session = source.session;
  const fan = session?.current;
  const error = source.voteError && actionError(source.voteError, strings);
  return html`<div part="actions">
      ${content}${error ? html`<span part="status" class="note">${error}</span>` : nothing}
    </div>
    ${session && fan?.state === 'signed-in' ? renderAccount(session, fan.userId, strings, source) : nothing}`;
}
