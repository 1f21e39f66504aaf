import { css, html, LitElement, nothing } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import type { Poll } from '../../src/platform/types.ts';
import type { FanPollErrorEvent } from '../../widget/events/fan-poll-error-event.ts';
import type { LivePollStore } from '../../widget/store/poll-model.ts';
import type { VoteChannel } from '../../widget/voting/vote-channel.ts';
import type { BackgroundClient } from '../shared/background-client.ts';
import { ExtensionError } from '../shared/extension-error.ts';
import type { ApprovedSite, SessionView } from '../shared/messages.ts';
import { popupPollStore } from './popup-poll-store.ts';
import { popupVoteChannel } from './popup-vote-channel.ts';
import { RecentUserPolls } from './recent-user-polls.ts';

type Tab = 'polls' | 'history' | 'sites';

export const historyPageSize = 10;

/**
 * The action popup: the fan's session (user id, sign in / out), their polls (optionally only those they voted in),
 * the history with search and paging, and the sites approved for votes with a revoke button each. Every poll is the
 * widget's own `<fan-poll>` card, given a store and a vote channel that go through the background (which holds the
 * tokens), so the fan votes, and sees their vote and its `voteStatus`, exactly as on a partner page. Sign-in runs in
 * the background: the popup only asks for it (it closes when the sign-in window takes focus).
 */
export class FanExtensionPopup extends LitElement {
  static override properties = {
    client: { attribute: false },
    session: { state: true },
    tab: { state: true },
    polls: { state: true },
    userVoted: { state: true },
    history: { state: true },
    historyPage: { state: true },
    search: { state: true },
    sites: { state: true },
    busy: { state: true },
    message: { state: true },
  };

  declare client: BackgroundClient | undefined;
  declare session: SessionView | undefined;
  declare tab: Tab;
  declare polls: Poll[];
  declare userVoted: boolean;
  declare history: Poll[];
  declare historyPage: number;
  declare search: string;
  declare sites: ApprovedSite[];
  declare busy: boolean;
  declare message: string;
  /** The cards' store and channel, made once the client is known (one store: one batched read for every card). */
  #cards: { store: LivePollStore; channel: VoteChannel } | undefined;

  constructor() {
    super();
    this.client = undefined;
    this.session = undefined;
    this.tab = 'polls';
    this.polls = [];
    this.userVoted = false;
    this.history = [];
    this.historyPage = 1;
    this.search = '';
    this.sites = [];
    this.busy = false;
    this.message = '';
  }

  static override styles = css`
    :host {
      display: block;
      width: 360px;
      min-height: 200px;
      font:
        14px/1.4 system-ui,
        sans-serif;
      color: #111;
      padding: 12px;
      box-sizing: border-box;
    }
    header {
      display: flex;
      justify-content: space-between;
      align-items: center;
      gap: 8px;
    }
    nav {
      display: flex;
      gap: 4px;
      margin: 8px 0;
    }
    nav button[aria-pressed='true'] {
      font-weight: bold;
    }
    .message {
      color: #a00;
      margin: 4px 0;
    }
    .user {
      font-size: 12px;
      word-break: break-all;
    }
    .polls {
      display: grid;
      gap: 8px;
      margin-top: 8px;
    }
    fan-poll {
      --fan-poll-font: inherit;
      --fan-poll-min-height: 0;
    }
  `;

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
      this.session = await this.#client().ask('session-status', undefined);
    });
    if (this.session?.signedIn) await this.#load();
  }

  async #load(): Promise<void> {
    await this.#run(async () => {
      const client = this.#client();
      if (this.tab === 'polls') this.polls = await client.ask('user-polls', { userVoted: this.userVoted });
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
    void this.#load();
  }

  #signIn(): void {
    void this.#run(async () => {
      this.session = await this.#client().ask('sign-in', undefined);
    }).then(() => (this.session?.signedIn ? this.#load() : undefined));
  }

  #signOut(): void {
    void this.#run(async () => {
      this.session = await this.#client().ask('sign-out', undefined);
      this.polls = [];
      this.history = [];
    });
  }

  /** A card found the fan's session gone (refresh token refused, signed out elsewhere): the header says so. */
  #cardError(event: FanPollErrorEvent): void {
    if (event.detail.code === 'sign-in-required') void this.#refreshSession();
  }

  #revoke(origin: string): void {
    void this.#run(async () => {
      this.sites = await this.#client().ask('revoke-site', { origin });
    });
  }

  override render() {
    const session = this.session;
    return html`
      <header>
        <strong>Fan Polls</strong>
        ${
          session?.signedIn
            ? html`<button type="button" @click=${this.#signOut} ?disabled=${this.busy}>Sign out</button>`
            : html`<button type="button" @click=${this.#signIn} ?disabled=${this.busy || !session}>
                Sign in
              </button>`
        }
      </header>
      <div class="user" data-testid="session">
        ${session === undefined ? 'Loading…' : session.signedIn ? `Signed in as ${session.userId ?? '…'}` : 'Not signed in'}
      </div>
      ${this.message ? html`<div class="message" role="alert">${this.message}</div>` : nothing}
      ${session?.signedIn ? this.#renderSignedIn() : nothing}
    `;
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
      ${this.polls.length === 0 ? html`<p>No polls.</p>` : this.#renderCards(this.polls)}
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
          >Search
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
      ${this.history.length === 0 ? html`<p>No polls in your history.</p>` : this.#renderCards(this.history)}
      <div>
        <button
          type="button"
          ?disabled=${this.historyPage <= 1 || this.busy}
          @click=${() => {
            this.historyPage -= 1;
            void this.#load();
          }}
        >
          Previous
        </button>
        <span data-testid="history-page">Page ${this.historyPage}</span>
        <button
          type="button"
          ?disabled=${this.history.length < historyPageSize || this.busy}
          @click=${() => {
            this.historyPage += 1;
            void this.#load();
          }}
        >
          Next
        </button>
      </div>
    `;
  }

  /** The list gives the ids and the order; each card reads its poll live from the store (`eager`: one batch). */
  #renderCards(polls: readonly Poll[]) {
    const { store, channel } = this.#cardSources();
    return html`<div class="polls">
      ${repeat(
        polls,
        (poll) => poll.id,
        (poll) => html`<fan-poll poll-id=${poll.id} eager .store=${store} .channel=${channel}></fan-poll>`,
      )}
    </div>`;
  }

  #renderSites() {
    if (this.sites.length === 0) return html`<p>No site may ask for your votes.</p>`;
    return html`<ul>
      ${this.sites.map(
        (site) =>
          html`<li>
            <span>${site.origin}</span>
            <button
              type="button"
              aria-label=${`Revoke ${site.origin}`}
              @click=${() => {
                this.#revoke(site.origin);
              }}
            >
              Revoke
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
