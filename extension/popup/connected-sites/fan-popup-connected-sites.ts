import { css, html, LitElement } from 'lit';
import { extensionTheme } from '../../shared/extension-theme.ts';
import type { ConnectedSite } from '../../shared/messages.ts';
import { PopupActionEvent } from '../popup-action-event.ts';
import { defaultBrand } from '../../shared/default-brand.ts';

const plural = (count: number, noun: string): string => `${count} ${noun}${count === 1 ? '' : 's'}`;

/** The "Connected sites" tab: each site the fan connected, what it did (reads, proposals, votes), and Disconnect. */
export class FanPopupConnectedSites extends LitElement {
  static override properties = {
    sites: { attribute: false },
    brand: { attribute: false },
  };

  declare sites: readonly ConnectedSite[];
  /** The extension's name as the fan installed it (a partner's build carries the club's). */
  declare brand: string;

  constructor() {
    super();
    this.sites = [];
    this.brand = defaultBrand;
  }

  static override styles = [
    extensionTheme,
    css`
      ul.sites {
        list-style: none;
        margin: 8px 0;
        padding: 0;
        display: grid;
        gap: 6px;
      }
      .sites li {
        display: flex;
        justify-content: space-between;
        align-items: center;
        gap: 8px;
      }
      .origin {
        font-family: ui-monospace, monospace;
        font-weight: 600;
        word-break: break-all;
      }
    `,
  ];

  override render() {
    if (this.sites.length === 0) {
      return html`<p>
        No connected site. Open a club's page and connect it here to vote there with ${this.brand}.
      </p>`;
    }
    return html`<ul class="sites">
      ${this.sites.map(
        ({ origin, activity }) =>
          html`<li class="card">
            <div>
              <div class="origin">${origin}</div>
              <div class="muted" data-testid="site-activity">
                ${`${plural(activity.reads, 'read')} of your votes · ${plural(activity.proposals, 'vote')} proposed · ${activity.votes} confirmed`}
              </div>
            </div>
            <button
              type="button"
              aria-label=${`Disconnect ${origin}`}
              @click=${() => {
                this.dispatchEvent(new PopupActionEvent({ kind: 'disconnect-site', origin }));
              }}
            >
              Disconnect
            </button>
          </li>`,
      )}
    </ul>`;
  }
}

if (!customElements.get('fan-popup-connected-sites'))
  customElements.define('fan-popup-connected-sites', FanPopupConnectedSites);

declare global {
  interface HTMLElementTagNameMap {
    'fan-popup-connected-sites': FanPopupConnectedSites;
  }
}
