import { html, LitElement, nothing } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import { extensionTheme } from '../../shared/extension-theme.ts';
import { PopupActionEvent } from '../popup-action-event.ts';
import { phaseLabels, type PollRow } from '../poll-rows.ts';
import type { CardSources } from '../card-sources.ts';
import { pollRowsStyles } from './fan-popup-poll-rows.styles.ts';

/**
 * A compact row per poll (question, club, phase, "You voted"); the open row holds the widget's own `<fan-poll>`,
 * which reads live from the popup's store and votes through its channel. A click on a row asks the popup to open or
 * close it (one open row at a time).
 */
export class FanPopupPollRows extends LitElement {
  static override properties = {
    rows: { attribute: false },
    openPollId: { attribute: false },
    cards: { attribute: false },
  };

  declare rows: readonly PollRow[];
  declare openPollId: string | undefined;
  declare cards: CardSources | undefined;

  constructor() {
    super();
    this.rows = [];
    this.openPollId = undefined;
    this.cards = undefined;
  }

  static override styles = [extensionTheme, pollRowsStyles];

  override render() {
    const cards = this.cards;
    return html`<ol class="rows">
      ${repeat(
        this.rows,
        ({ poll }) => poll.id,
        ({ poll, phase }) => {
          const open = this.openPollId === poll.id;
          return html`<li>
            <button
              type="button"
              class="row"
              data-testid="poll-row"
              aria-expanded=${open ? 'true' : 'false'}
              @click=${() => {
                this.dispatchEvent(
                  new PopupActionEvent({ kind: 'open-poll', pollId: open ? undefined : poll.id }),
                );
              }}
            >
              <span class="question">${poll.question}</span>
              <span class="muted"
                >${poll.partnerName} ·
                ${phaseLabels[phase]}${
                  poll.userVote === true ? html` · <span class="badge">You voted</span>` : nothing
                }</span
              >
            </button>
            ${
              open && cards
                ? html`<fan-poll
                    poll-id=${poll.id}
                    eager
                    .store=${cards.store}
                    .channel=${cards.channel}
                  ></fan-poll>`
                : nothing
            }
          </li>`;
        },
      )}
    </ol>`;
  }
}

if (!customElements.get('fan-popup-poll-rows'))
  customElements.define('fan-popup-poll-rows', FanPopupPollRows);

declare global {
  interface HTMLElementTagNameMap {
    'fan-popup-poll-rows': FanPopupPollRows;
  }
}
