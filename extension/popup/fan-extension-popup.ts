import { css, html, LitElement, nothing } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import type { Poll } from '../../src/platform/types.ts';
import type { FanPollErrorEvent } from '../../widget/events/fan-poll-error-event.ts';
import type { LivePollStore } from '../../widget/store/poll-model.ts';
import type { VoteChannel } from '../../widget/voting/vote-channel.ts';
import type { BackgroundClient } from '../shared/background-client.ts';
import { ExtensionError } from '../shared/extension-error.ts';
import { extensionTheme } from '../shared/extension-theme.ts';
import type { ConnectedSite, SessionView } from '../shared/messages.ts';
import type { ActiveSite } from './active-site.ts';
import { orderForPopup, pageOf, phaseLabels } from './poll-rows.ts';
import { popupPollStore } from './popup-poll-store.ts';
import { popupVoteChannel } from './popup-vote-channel.ts';
import { RecentUserPolls } from './recent-user-polls.ts';

type Tab = 'polls' | 'history' | 'sites';

export const historyPageSize = 10;

const plural = (count: number, noun: string): string => `${count} ${noun}${count === 1 ? '' : 's'}`;
export const pollsPageSize = 8;

/** Asks the browser for a site's host permission; must be called straight from the fan's click. */
export type SitePermissionRequester = (origin: string) => Promise<boolean>;

/**
 * The action popup: who is signed in (the platform gives only a user id), the site of the tab the popup was opened
 * over (connect it, or disconnect it), the fan's polls as a compact list (open first, paged; a row opens the widget's
 * own `<fan-poll>` card to vote), the history with search and paging, and the connected sites with what each did.
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
  #cards: { store: LivePollStore; channel: VoteChannel } | undefined;

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

  static override styles = [
    extensionTheme,
    css`
      :host {
        width: 380px;
        min-height: 220px;
        padding: 12px;
      }
      header {
        display: flex;
        justify-content: space-between;
        align-items: center;
        gap: 8px;
      }
      .session {
        margin: 4px 0 10px;
        word-break: break-all;
      }
      .this-site {
        margin-bottom: 10px;
      }
      .this-site .origin,
      .sites .origin {
        font-family: ui-monospace, monospace;
        font-weight: 600;
        word-break: break-all;
      }
      .this-site ul {
        margin: 6px 0;
        padding-left: 18px;
      }
      nav {
        display: flex;
        gap: 4px;
        margin: 8px 0;
      }
      nav button[aria-pressed='true'] {
        background: var(--ext-surface);
        font-weight: 600;
      }
      ol.rows,
      ul.sites {
        list-style: none;
        margin: 8px 0;
        padding: 0;
        display: grid;
        gap: 6px;
      }
      .row {
        width: 100%;
        text-align: left;
        display: grid;
        gap: 2px;
        padding: 8px 10px;
        border-radius: 8px;
        background: var(--ext-surface);
      }
      .row .question {
        font-weight: 600;
        display: -webkit-box;
        -webkit-line-clamp: 2;
        -webkit-box-orient: vertical;
        overflow: hidden;
      }
      .badge {
        font-weight: 600;
        color: var(--ext-accent);
      }
      .sites li {
        display: flex;
        justify-content: space-between;
        align-items: center;
        gap: 8px;
      }
      .pager {
        display: flex;
        align-items: center;
        justify-content: space-between;
        gap: 8px;
      }
      form[role='search'] {
        display: flex;
        gap: 6px;
        align-items: end;
      }
      fan-poll {
        --fan-poll-font: inherit;
        --fan-poll-min-height: 0;
        margin-top: 6px;
      }
    `,
  ];

  override connectedCallback(): void {
    super.connectedCallback();
    void this.#refreshSession();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#cards?.store.dispose();
    this.#cards = undefined;
  }

  #cardSources(): { store: LivePollStore; channel: VoteChannel } {
    if (!this.#cards) {
      const client = this.#client();
      // The store's read also answers each card's first fan-view read (one request for the popup, not one per card).
      const recent = new RecentUserPolls();
      this.#cards = { store: popupPollStore(client, recent), channel: popupVoteChannel(client, recent) };
    }
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
          'Not connected: the browser did not allow Fan Polls on this site.',
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

  /** A card found the fan's session gone (refresh token refused, signed out elsewhere): the header says so. */
  #cardError(event: FanPollErrorEvent): void {
    if (event.detail.code === 'sign-in-required') void this.#refreshSession();
  }

  override render() {
    const session = this.session;
    return html`
      <header>
        <span class="brand">Fan Polls</span>
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
      ${this.#renderThisSite()} ${session?.signedIn ? this.#renderSignedIn() : nothing}
    `;
  }

  #renderThisSite() {
    const site = this.site;
    if (!site) return nothing;
    const connected = this.sites.some((each) => each.origin === site.origin);
    if (connected) {
      return html`<section class="this-site card" data-testid="this-site">
        <div><span class="origin">${site.origin}</span> is connected.</div>
        <div class="muted">Its cards propose votes; you confirm each one in a Fan Polls window.</div>
        <div class="actions">
          <button
            type="button"
            @click=${() => {
              this.#disconnect(site.origin);
            }}
            ?disabled=${this.busy}
          >
            Disconnect this site
          </button>
        </div>
      </section>`;
    }
    return html`<section class="this-site card" data-testid="this-site">
      <div>Vote with Fan Polls on <span class="origin">${site.origin}</span>?</div>
      <ul class="muted">
        <li>The site can see whether you are signed in.</li>
        <li>
          It can ask whether and how you voted only in polls of the clubs whose polls this page shows now (up
          to 120 reads an hour), and only from this exact address.
        </li>
        <li>It can propose a vote. Nothing is sent until you confirm it in a Fan Polls window.</li>
        <li>It can never vote for you, read your tokens or see other sites.</li>
      </ul>
      <div class="actions">
        <button
          type="button"
          class="primary"
          @click=${() => {
            this.#connect(site);
          }}
          ?disabled=${this.busy}
        >
          Connect this site
        </button>
      </div>
    </section>`;
  }

  #renderSignedIn() {
    const tabs: [Tab, string][] = [
      ['polls', 'My polls'],
      ['history', 'History'],
      ['sites', 'Connected sites'],
    ];
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
      <section @fan-poll-error=${this.#cardError}>
        ${this.tab === 'polls' ? this.#renderPolls() : nothing}
        ${this.tab === 'history' ? this.#renderHistory() : nothing}
        ${this.tab === 'sites' ? this.#renderSites() : nothing}
      </section>
    `;
  }

  #renderPolls() {
    const { rows, more } = pageOf(orderForPopup(this.polls, Date.now()), this.pollsPage, pollsPageSize);
    return html`
      <label
        ><input
          type="checkbox"
          .checked=${this.userVoted}
          @change=${(event: Event) => {
            this.userVoted = (event.target as HTMLInputElement).checked;
            void this.#load();
          }}
        />
        Only polls I voted in</label
      >
      ${rows.length === 0 ? html`<p>No polls.</p>` : this.#renderRows(rows)}
      ${this.#renderPager(this.pollsPage, more, 'polls-page', (page) => {
        this.pollsPage = page;
        this.openPollId = undefined;
      })}
    `;
  }

  #renderHistory() {
    return html`
      <form
        role="search"
        @submit=${(event: Event) => {
          event.preventDefault();
          this.historyPage = 1;
          void this.#load();
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
              this.search = (event.target as HTMLInputElement).value;
            }}
        /></label>
        <button type="submit">Search</button>
      </form>
      ${
        this.history.length === 0
          ? html`<p>No polls in your history.</p>`
          : this.#renderRows(orderForPopup(this.history, Date.now()))
      }
      ${this.#renderPager(
        this.historyPage,
        this.history.length >= historyPageSize,
        'history-page',
        (page) => {
          this.historyPage = page;
          void this.#load();
        },
      )}
    `;
  }

  #renderPager(page: number, more: boolean, testId: string, go: (page: number) => void) {
    if (page === 1 && !more) return nothing;
    return html`<div class="pager">
      <button
        type="button"
        ?disabled=${page <= 1 || this.busy}
        @click=${() => {
          go(page - 1);
        }}
      >
        Previous
      </button>
      <span data-testid=${testId}>Page ${page}</span>
      <button
        type="button"
        ?disabled=${!more || this.busy}
        @click=${() => {
          go(page + 1);
        }}
      >
        Next
      </button>
    </div>`;
  }

  /** A compact row per poll; the open row holds the widget's card, which reads live from the store and votes. */
  #renderRows(rows: ReturnType<typeof orderForPopup>) {
    const { store, channel } = this.#cardSources();
    return html`<ol class="rows">
      ${repeat(
        rows,
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
                this.openPollId = open ? undefined : poll.id;
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
            ${open ? html`<fan-poll poll-id=${poll.id} eager .store=${store} .channel=${channel}></fan-poll>` : nothing}
          </li>`;
        },
      )}
    </ol>`;
  }

  #renderSites() {
    if (this.sites.length === 0) {
      return html`<p>
        No connected site. Open a club's page and connect it here to vote there with Fan Polls.
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
                this.#disconnect(origin);
              }}
            >
              Disconnect
            </button>
          </li>`,
      )}
    </ul>`;
  }
}

if (!customElements.get('fan-extension-popup'))
  customElements.define('fan-extension-popup', FanExtensionPopup);

declare global {
  interface HTMLElementTagNameMap {
    'fan-extension-popup': FanExtensionPopup;
  }
}
