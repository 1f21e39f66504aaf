import { html, LitElement } from 'lit';
import type { Poll } from '../../../src/platform/types.ts';
import { extensionTheme } from '../../shared/extension-theme.ts';
import type { CardSources } from '../card-sources.ts';
import '../pager/fan-popup-pager.ts';
import '../poll-rows/fan-popup-poll-rows.ts';
import { PopupActionEvent } from '../popup-action-event.ts';
import { orderForPopup, pageOf } from '../poll-rows.ts';

const pollsPageSize = 8;

/** The "My polls" tab: the fan's polls, open first, a page at a time, optionally only those the fan voted in. */
export class FanPopupMyPolls extends LitElement {
  static override properties = {
    polls: { attribute: false },
    page: { attribute: false },
    userVoted: { attribute: false },
    openPollId: { attribute: false },
    cards: { attribute: false },
    busy: { attribute: false },
  };

  declare polls: readonly Poll[];
  declare page: number;
  /** Only the polls the fan voted in. */
  declare userVoted: boolean;
  declare openPollId: string | undefined;
  declare cards: CardSources | undefined;
  declare busy: boolean;

  constructor() {
    super();
    this.polls = [];
    this.page = 1;
    this.userVoted = false;
    this.openPollId = undefined;
    this.cards = undefined;
    this.busy = false;
  }

  static override styles = extensionTheme;

  override render() {
    const { rows, more } = pageOf(orderForPopup(this.polls, Date.now()), this.page, pollsPageSize);
    return html`
      <label
        ><input
          type="checkbox"
          .checked=${this.userVoted}
          @change=${(event: Event) => {
            const userVoted = (event.target as HTMLInputElement).checked;
            this.dispatchEvent(new PopupActionEvent({ kind: 'only-voted', userVoted }));
          }}
        />
        Only polls I voted in</label
      >
      ${
        rows.length === 0
          ? html`<p>No polls.</p>`
          : html`<fan-popup-poll-rows
              .rows=${rows}
              .openPollId=${this.openPollId}
              .cards=${this.cards}
            ></fan-popup-poll-rows>`
      }
      <fan-popup-pager .list=${'polls'} .page=${this.page} .more=${more} .busy=${this.busy}></fan-popup-pager>
    `;
  }
}

if (!customElements.get('fan-popup-my-polls')) customElements.define('fan-popup-my-polls', FanPopupMyPolls);

declare global {
  interface HTMLElementTagNameMap {
    'fan-popup-my-polls': FanPopupMyPolls;
  }
}
