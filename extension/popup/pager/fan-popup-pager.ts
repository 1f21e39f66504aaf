import { css, html, LitElement, nothing } from 'lit';
import { extensionTheme } from '../../shared/extension-theme.ts';
import { PopupActionEvent, type PagedList } from '../popup-action-event.ts';

/**
 * Previous and Next around the page number of one of the popup's paged lists; nothing on a first page with no more.
 * A click asks the popup for the other page.
 */
export class FanPopupPager extends LitElement {
  static override properties = {
    list: { attribute: false },
    page: { attribute: false },
    more: { attribute: false },
    busy: { attribute: false },
  };

  declare list: PagedList;
  declare page: number;
  declare more: boolean;
  declare busy: boolean;

  constructor() {
    super();
    this.list = 'polls';
    this.page = 1;
    this.more = false;
    this.busy = false;
  }

  static override styles = [
    extensionTheme,
    css`
      .pager {
        display: flex;
        align-items: center;
        justify-content: space-between;
        gap: 8px;
      }
    `,
  ];

  #go(page: number): void {
    this.dispatchEvent(new PopupActionEvent({ kind: 'page', list: this.list, page }));
  }

  override render() {
    const { page, more, busy } = this;
    if (page === 1 && !more) return nothing;
    return html`<div class="pager">
      <button
        type="button"
        ?disabled=${page <= 1 || busy}
        @click=${() => {
          this.#go(page - 1);
        }}
      >
        Previous
      </button>
      <span data-testid=${`${this.list}-page`}>Page ${page}</span>
      <button
        type="button"
        ?disabled=${!more || busy}
        @click=${() => {
          this.#go(page + 1);
        }}
      >
        Next
      </button>
    </div>`;
  }
}

if (!customElements.get('fan-popup-pager')) customElements.define('fan-popup-pager', FanPopupPager);

declare global {
  interface HTMLElementTagNameMap {
    'fan-popup-pager': FanPopupPager;
  }
}
