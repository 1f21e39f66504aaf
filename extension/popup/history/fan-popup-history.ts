import { css, html, LitElement } from 'lit';
import type { Poll } from '../../../src/platform/types.ts';
import { extensionTheme } from '../../shared/extension-theme.ts';
import type { CardSources } from '../card-sources.ts';
import '../pager/fan-popup-pager.ts';
import '../poll-rows/fan-popup-poll-rows.ts';
import { PopupActionEvent } from '../popup-action-event.ts';
import { orderForPopup } from '../poll-rows.ts';

export const historyPageSize = 10;

/** The "History" tab: the fan's poll history, searched and paged by the platform. */
export class FanPopupHistory extends LitElement {
  static override properties = {
    history: { attribute: false },
    page: { attribute: false },
    search: { attribute: false },
    openPollId: { attribute: false },
    cards: { attribute: false },
    busy: { attribute: false },
  };

  /** One page of the history, as the platform answered it. */
  declare history: readonly Poll[];
  declare page: number;
  declare search: string;
  declare openPollId: string | undefined;
  declare cards: CardSources | undefined;
  declare busy: boolean;

  constructor() {
    super();
    this.history = [];
    this.page = 1;
    this.search = '';
    this.openPollId = undefined;
    this.cards = undefined;
    this.busy = false;
  }

  static override styles = [
    extensionTheme,
    css`
      form[role='search'] {
        display: flex;
        gap: 6px;
        align-items: end;
      }
    `,
  ];

  override render() {
    return html`
      <form
        role="search"
        @submit=${(event: Event) => {
          event.preventDefault();
          this.dispatchEvent(new PopupActionEvent({ kind: 'search-history' }));
        }}
      >
        <label
          >Search<br />
          <input
            type="search"
            name="search"
            maxlength="100"
            .value=${this.search}
            @input=${(event: Event) => {
              const search = (event.target as HTMLInputElement).value;
              this.dispatchEvent(new PopupActionEvent({ kind: 'search-text', search }));
            }}
        /></label>
        <button type="submit">Search</button>
      </form>
      ${
        this.history.length === 0
          ? html`<p>No polls in your history.</p>`
          : html`<fan-popup-poll-rows
              .rows=${orderForPopup(this.history, Date.now())}
              .openPollId=${this.openPollId}
              .cards=${this.cards}
            ></fan-popup-poll-rows>`
      }
      <fan-popup-pager
        .list=${'history'}
        .page=${this.page}
        .more=${this.history.length >= historyPageSize}
        .busy=${this.busy}
      ></fan-popup-pager>
    `;
  }
}

if (!customElements.get('fan-popup-history')) customElements.define('fan-popup-history', FanPopupHistory);

declare global {
  interface HTMLElementTagNameMap {
    'fan-popup-history': FanPopupHistory;
  }
}
