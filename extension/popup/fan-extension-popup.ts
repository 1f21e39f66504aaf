import { html, LitElement, nothing } from 'lit';
import type { Poll } from '../../src/platform/types.ts';
import type { FanPollErrorEvent } from '../../widget/events/fan-poll-error-event.ts';
import type { BackgroundClient } from '../shared/background-client.ts';
import { ExtensionError } from '../shared/extension-error.ts';
import type { ConnectedSite, SessionView } from '../shared/messages.ts';
import type { ActiveSite } from './active-site.ts';
import { cardSources, type CardSources } from './card-sources.ts';
import './connected-sites/fan-popup-connected-sites.ts';
import { popupStyles } from './fan-extension-popup.styles.ts';
import { historyPageSize } from './history/fan-popup-history.ts';
import './my-polls/fan-popup-my-polls.ts';
import type { PopupActionEvent } from './popup-action-event.ts';
import './this-site/fan-popup-this-site.ts';
import { defaultBrand } from '../shared/default-brand.ts';

type Tab = 'polls' | 'history' | 'sites';

const tabs: readonly (readonly [Tab, string])[] = [
  ['polls', 'My polls'],
  ['history', 'History'],
  ['sites', 'Connected sites'],
];

/** Asks the browser for a site's host permission; must be called straight from the fan's click. */
export type SitePermissionRequester = (origin: string) => Promise<boolean>;

/**
 * The action popup: who is signed in (the platform gives only a user id), the site of the tab the popup was opened
 * over (connect it, or disconnect it), the fan's polls as a compact list (open first, paged; a row opens the widget's
 * own `<fan-poll>` card to vote), the history with search and paging, and the connected sites with what each did.
 * It holds the state and talks to the background; each part is an element of its own (`this-site/`, `my-polls/`,
 * `history/`, `connected-sites/`) that renders what it is given and asks for changes with a `PopupActionEvent`.
 * Sign-in runs in the background: the popup only asks for it (it closes when the sign-in window takes focus).
 */
export class FanExtensionPopup extends LitElement {
  static override properties = {
    client: { attribute: false },
    site: { attribute: false },
    requestSitePermission: { attribute: false },
    reloadTab: { attribute: false },
    session: { state: true },
    tab: { state: true },
    polls: { state: true },
    pollsPage: { state: true },
    userVoted: { state: true },
    openPollId: { state: true },
    history: { state: true },
    historyPage: { state: true },
    search: { state: true },
    sites: { state: true },
    busy: { state: true },
    message: { state: true },
  };

  /** The extension's name from its manifest, set before the element connects (a partner's build names itself). */
  brand = defaultBrand;
  declare client: BackgroundClient | undefined;
  /** The page the popup was opened over, when it is an http(s) page. */
  declare site: ActiveSite | undefined;
  declare requestSitePermission: SitePermissionRequester | undefined;
  declare reloadTab: ((tabId: number) => Promise<void>) | undefined;
  declare session: SessionView | undefined;
  declare tab: Tab;
  declare polls: Poll[];
  declare pollsPage: number;
  declare userVoted: boolean;
  /** The one row opened into a card. */
  declare openPollId: string | undefined;
  declare history: Poll[];
  declare historyPage: number;
  declare search: string;
  declare sites: ConnectedSite[];
  declare busy: boolean;
  declare message: string;
  /** The cards' store and channel, made once the client is known (one store: one batched read for every card). */
  #cards: CardSources | undefined;

  constructor() {
    super();
    this.client = undefined;
    this.site = undefined;
    this.requestSitePermission = undefined;
    this.reloadTab = undefined;
    this.session = undefined;
    this.tab = 'polls';
    this.polls = [];
    this.pollsPage = 1;
    this.userVoted = false;
    this.openPollId = undefined;
    this.history = [];
    this.historyPage = 1;
    this.search = '';
    this.sites = [];
    this.busy = false;
    this.message = '';
  }

  static override styles = popupStyles;

  override connectedCallback(): void {
    super.connectedCallback();
    void this.#refreshSession();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#cards?.store.dispose();
    this.#cards = undefined;
  }

  #cardSources(): CardSources {
    this.#cards ??= cardSources(this.#client());
    return this.#cards;
  }

  async #run(task: () => Promise<void>): Promise<void> {
    this.busy = true;
    this.message = '';
    try {
      await task();
    } catch (error) {
      this.message = error instanceof ExtensionError ? error.message : 'Something went wrong; try again.';
      if (
        error instanceof ExtensionError &&
        (error.code === 'signed_out' || error.code === 'invalid_grant')
      ) {
        this.session = { signedIn: false };
      }
    } finally {
      this.busy = false;
    }
  }

  #client(): BackgroundClient {
    if (!this.client) throw new ExtensionError('unavailable', 'The extension is not ready.');
    return this.client;
  }

  async #refreshSession(): Promise<void> {
    await this.#run(async () => {
      const client = this.#client();
      this.session = await client.ask('session-status', undefined);
      this.sites = await client.ask('sites', undefined);
    });
    if (this.session?.signedIn) await this.#load();
  }

  async #load(): Promise<void> {
    await this.#run(async () => {
      const client = this.#client();
      if (this.tab === 'polls') {
        this.polls = await client.ask('user-polls', { userVoted: this.userVoted });
        this.pollsPage = 1;
      }
      if (this.tab === 'history') {
        this.history = await client.ask('poll-history', {
          page: this.historyPage,
          limit: historyPageSize,
          ...(this.search.trim() ? { search: this.search.trim() } : {}),
        });
      }
      if (this.tab === 'sites') this.sites = await client.ask('sites', undefined);
    });
  }

  #show(tab: Tab): void {
    this.tab = tab;
    this.openPollId = undefined;
    void this.#load();
  }

  #signIn(): void {
    void this.#run(async () => {
      this.session = await this.#client().ask('sign-in', undefined);
    }).then(() => (this.session?.signedIn ? this.#load() : undefined));
  }

  #signOut(): void {
    void this.#run(async () => {
      const client = this.#client();
      this.session = await client.ask('sign-out', undefined);
      this.polls = [];
      this.history = [];
      this.sites = await client.ask('sites', undefined);
    });
  }

  /** The browser grants a host permission only inside the fan's click: ask first, then connect. */
  #connect(site: ActiveSite): void {
    const granted = this.requestSitePermission?.(site.origin) ?? Promise.resolve(false);
    void this.#run(async () => {
      if (!(await granted)) {
        throw new ExtensionError(
          'forbidden',
          `Not connected: the browser did not allow ${this.brand} on this site.`,
        );
      }
      this.sites = await this.#client().ask('connect-site', { origin: site.origin });
      // The page bridge starts with the page: reload it so its cards find the extension.
      await this.reloadTab?.(site.tabId);
    });
  }

  #disconnect(origin: string): void {
    void this.#run(async () => {
      this.sites = await this.#client().ask('disconnect-site', { origin });
    });
  }

  /** What a part asked for; dispatched inside the fan's click, so a connect can still ask for the permission. */
  #onAction(event: PopupActionEvent): void {
    const action = event.detail;
    switch (action.kind) {
      case 'connect-site':
        if (this.site) this.#connect(this.site);
        break;
      case 'disconnect-site':
        this.#disconnect(action.origin);
        break;
      case 'only-voted':
        this.userVoted = action.userVoted;
        void this.#load();
        break;
      case 'page':
        if (action.list === 'polls') {
          this.pollsPage = action.page;
          this.openPollId = undefined;
        } else {
          this.historyPage = action.page;
          void this.#load();
        }
        break;
      case 'search-text':
        this.search = action.search;
        break;
      case 'search-history':
        this.historyPage = 1;
        void this.#load();
        break;
      case 'open-poll':
        this.openPollId = action.pollId;
        break;
    }
  }

  /** A card found the fan's session gone (refresh token refused, signed out elsewhere): the header says so. */
  #cardError(event: FanPollErrorEvent): void {
    if (event.detail.code === 'sign-in-required') void this.#refreshSession();
  }

  override render() {
    const session = this.session;
    const site = this.site;
    return html`
      <header>
        <span class="brand">${this.brand}</span>
        ${
          session?.signedIn
            ? html`<button type="button" @click=${this.#signOut} ?disabled=${this.busy}>Sign out</button>`
            : html`<button
                type="button"
                class="primary"
                @click=${this.#signIn}
                ?disabled=${this.busy || !session}
              >
                Sign in
              </button>`
        }
      </header>
      <div class="session" data-testid="session">
        ${
          session === undefined
            ? 'Loading…'
            : session.signedIn
              ? html`Signed in as user <strong>${session.userId ?? '…'}</strong>
                  <div class="muted">The platform shares only your user id, not your name.</div>`
              : 'Not signed in'
        }
      </div>
      ${this.message ? html`<div class="error" role="alert">${this.message}</div>` : nothing}
      ${
        site
          ? html`<fan-popup-this-site
              .site=${site}
              .connected=${this.sites.some((each) => each.origin === site.origin)}
              .busy=${this.busy}
              .brand=${this.brand}
              @fan-popup-action=${this.#onAction}
            ></fan-popup-this-site>`
          : nothing
      }
      ${session?.signedIn ? this.#renderSignedIn() : nothing}
    `;
  }

  #renderSignedIn() {
    return html`
      <nav>
        ${tabs.map(
          ([tab, label]) =>
            html`<button
              type="button"
              aria-pressed=${this.tab === tab ? 'true' : 'false'}
              @click=${() => {
                this.#show(tab);
              }}
            >
              ${label}
            </button>`,
        )}
      </nav>
      <section @fan-poll-error=${this.#cardError} @fan-popup-action=${this.#onAction}>
        ${this.#renderTab()}
      </section>
    `;
  }

  #renderTab() {
    switch (this.tab) {
      case 'polls':
        return html`<fan-popup-my-polls
          .polls=${this.polls}
          .page=${this.pollsPage}
          .userVoted=${this.userVoted}
          .openPollId=${this.openPollId}
          .cards=${this.#cardSources()}
          .busy=${this.busy}
        ></fan-popup-my-polls>`;
      case 'history':
        return html`<fan-popup-history
          .history=${this.history}
          .page=${this.historyPage}
          .search=${this.search}
          .openPollId=${this.openPollId}
          .cards=${this.#cardSources()}
          .busy=${this.busy}
        ></fan-popup-history>`;
      case 'sites':
        return html`<fan-popup-connected-sites
          .sites=${this.sites}
          .brand=${this.brand}
        ></fan-popup-connected-sites>`;
    }
  }
}

if (!customElements.get('fan-extension-popup'))
  customElements.define('fan-extension-popup', FanExtensionPopup);

declare global {
  interface HTMLElementTagNameMap {
    'fan-extension-popup': FanExtensionPopup;
  }
}
