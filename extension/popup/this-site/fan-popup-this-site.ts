import { css, html, LitElement, nothing } from 'lit';
import { extensionTheme } from '../../shared/extension-theme.ts';
import type { ActiveSite } from '../active-site.ts';
import { PopupActionEvent } from '../popup-action-event.ts';
import { defaultBrand } from '../../shared/default-brand.ts';

/**
 * The site of the tab the popup was opened over: what connecting it allows, and Connect; or that it is connected, and
 * Disconnect. The popup connects it inside the fan's click (the browser grants a host permission only there).
 */
export class FanPopupThisSite extends LitElement {
  static override properties = {
    site: { attribute: false },
    connected: { attribute: false },
    busy: { attribute: false },
    brand: { attribute: false },
  };

  declare site: ActiveSite | undefined;
  declare connected: boolean;
  declare busy: boolean;
  /** The extension's name as the fan installed it (a partner's build carries the club's). */
  declare brand: string;

  constructor() {
    super();
    this.site = undefined;
    this.connected = false;
    this.busy = false;
    this.brand = defaultBrand;
  }

  static override styles = [
    extensionTheme,
    css`
      .this-site {
        margin-bottom: 10px;
      }
      .origin {
        font-family: ui-monospace, monospace;
        font-weight: 600;
        word-break: break-all;
      }
      ul {
        margin: 6px 0;
        padding-left: 18px;
      }
    `,
  ];

  override render() {
    const site = this.site;
    if (!site) return nothing;
    if (this.connected) {
      return html`<section class="this-site card" data-testid="this-site">
        <div><span class="origin">${site.origin}</span> is connected.</div>
        <div class="muted">Its cards propose votes; you confirm each one in a ${this.brand} window.</div>
        <div class="actions">
          <button
            type="button"
            @click=${() => {
              this.dispatchEvent(new PopupActionEvent({ kind: 'disconnect-site', origin: site.origin }));
            }}
            ?disabled=${this.busy}
          >
            Disconnect this site
          </button>
        </div>
      </section>`;
    }
    return html`<section class="this-site card" data-testid="this-site">
      <div>Vote with ${this.brand} on <span class="origin">${site.origin}</span>?</div>
      <ul class="muted">
        <li>The site can see whether you are signed in.</li>
        <li>
          It can ask whether and how you voted only in polls of the clubs whose polls this page shows now (up
          to 120 reads an hour), and only from this exact address.
        </li>
        <li>It can propose a vote. Nothing is sent until you confirm it in a ${this.brand} window.</li>
        <li>It can never vote for you, read your tokens or see other sites.</li>
      </ul>
      <div class="actions">
        <button
          type="button"
          class="primary"
          @click=${() => {
            this.dispatchEvent(new PopupActionEvent({ kind: 'connect-site' }));
          }}
          ?disabled=${this.busy}
        >
          Connect this site
        </button>
      </div>
    </section>`;
  }
}

if (!customElements.get('fan-popup-this-site'))
  customElements.define('fan-popup-this-site', FanPopupThisSite);

declare global {
  interface HTMLElementTagNameMap {
    'fan-popup-this-site': FanPopupThisSite;
  }
}
