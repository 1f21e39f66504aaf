import { html, type TemplateResult } from 'lit';
import { detailWords } from '../i18n/detail-words.ts';
import type { CardStrings } from '../i18n/strings.ts';
import type { PageSession } from '../session/page-session.ts';

export interface AccountActions {
  /** Opens the proxy's sign-in for another fan (from the click). */
  readonly switchAccount: () => void;
  readonly signOutFailed: (error: unknown) => void;
}

/**
 * Who is signed in on the card, with sign-out and switching account: every card of the page that votes through the
 * same proxy shows the same fan, and either action on any card changes them all (`page-session.ts`).
 */
export function renderAccount(
  session: PageSession,
  userId: string,
  cardStrings: CardStrings,
  actions: AccountActions,
): TemplateResult {
  const strings = detailWords(cardStrings);
  // The platform names a fan by a long id only: its start is enough to tell two accounts apart.
  const shown = userId.length > 12 ? `${userId.slice(0, 8)}…` : userId;
  return html`<div part="account" class="account">
    <span title=${userId}>${strings.signedInAs(shown)}</span>
    <span class="account-actions">
      <button class="link" type="button" @click=${actions.switchAccount}>${strings.switchAccount}</button>
      <button
        class="link"
        type="button"
        @click=${() => {
          session.signOut().catch(actions.signOutFailed);
        }}
      >
        ${strings.signOut}
      </button>
    </span>
  </div>`;
}
