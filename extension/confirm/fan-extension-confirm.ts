import { css, html, LitElement, nothing } from 'lit';
import type { BackgroundClient } from '../shared/background-client.ts';
import { ExtensionError } from '../shared/extension-error.ts';
import { extensionTheme } from '../shared/extension-theme.ts';
import type { VoteProposal } from '../shared/messages.ts';
import { InputDelay } from './input-delay.ts';
import { defaultBrand } from '../shared/default-brand.ts';

/** Keeps the worker (and the proposal it holds) alive while the fan reads this window. */
const keepAliveMs = 20_000;
/** How long the window must be in front before Confirm takes input (browsers' prompts use about 0.5-1 s). */
const confirmInputDelayMs = 1000;

/**
 * The confirmation window: a page proposed a vote; the fan confirms it here, in a window no page can script, frame or
 * cover. Everything shown comes from the background by proposal id (never from the URL): the site that asked, the
 * club, the question and the answers as the platform has them, whether the result binds the club, and how much a
 * fan's tokens can weigh. The page's answer is preselected and the fan may pick another; Confirm is not focused, and
 * takes a click or Enter only after the window has been in front for a moment.
 */
export class FanExtensionConfirm extends LitElement {
  static override properties = {
    client: { attribute: false },
    proposalId: { type: String },
    proposal: { state: true },
    selected: { state: true },
    armed: { state: true },
    sending: { state: true },
    message: { state: true },
  };

  /** The extension's name from its manifest, set before the element connects (a partner's build names itself). */
  brand = defaultBrand;
  declare client: BackgroundClient | undefined;
  declare proposalId: string;
  declare proposal: VoteProposal | undefined;
  declare selected: string | undefined;
  declare armed: boolean;
  declare sending: boolean;
  declare message: string;
  readonly #delay = new InputDelay(confirmInputDelayMs, () => performance.now());
  #keepAlive: ReturnType<typeof setInterval> | undefined;
  #armTimer: ReturnType<typeof setTimeout> | undefined;

  constructor() {
    super();
    this.client = undefined;
    this.proposalId = '';
    this.proposal = undefined;
    this.selected = undefined;
    this.armed = false;
    this.sending = false;
    this.message = '';
  }

  static override styles = [
    extensionTheme,
    css`
      :host {
        padding: 16px;
        min-height: 100vh;
      }
      .site {
        font-family: ui-monospace, monospace;
        font-weight: 600;
        word-break: break-all;
      }
      .question {
        font-size: 16px;
        font-weight: 600;
        margin: 4px 0 10px;
      }
      fieldset {
        border: 0;
        margin: 0;
        padding: 0;
        display: grid;
        gap: 6px;
      }
      legend {
        padding: 0;
      }
      label.answer {
        display: flex;
        gap: 8px;
        align-items: flex-start;
        padding: 8px 10px;
        border: 1px solid var(--ext-border);
        border-radius: 8px;
        background: var(--ext-background);
        cursor: pointer;
      }
      label.answer:has(input:checked) {
        border-color: var(--ext-accent);
        box-shadow: 0 0 0 1px var(--ext-accent);
      }
      dl {
        display: grid;
        grid-template-columns: auto 1fr;
        gap: 2px 10px;
        margin: 10px 0;
      }
      dt {
        color: var(--ext-muted);
      }
      dd {
        margin: 0;
      }
    `,
  ];

  override connectedCallback(): void {
    super.connectedCallback();
    void this.#load();
    this.#keepAlive = setInterval(() => {
      void this.#details().catch(() => undefined);
    }, keepAliveMs);
    window.addEventListener('focus', this.#onShown);
    // Another window in front (a page's pop-up over this one) disarms, as hiding does.
    window.addEventListener('blur', this.#onHidden);
    document.addEventListener('visibilitychange', this.#onVisibility);
    document.addEventListener('keydown', this.#onKey);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearInterval(this.#keepAlive);
    clearTimeout(this.#armTimer);
    window.removeEventListener('focus', this.#onShown);
    window.removeEventListener('blur', this.#onHidden);
    document.removeEventListener('visibilitychange', this.#onVisibility);
    document.removeEventListener('keydown', this.#onKey);
  }

  /**
   * Shown, or back in front (the click that brings the window back lands inside the new delay, so it is ignored):
   * input counts again only after the delay. Hidden or blurred disarms.
   */
  readonly #onShown = (): void => {
    if (document.visibilityState !== 'visible') return;
    this.#delay.restart();
    this.#scheduleArm();
  };

  readonly #onHidden = (): void => {
    this.#delay.disarm();
    this.armed = false;
    clearTimeout(this.#armTimer);
  };

  readonly #onVisibility = (): void => {
    if (document.visibilityState === 'visible') this.#onShown();
    else this.#onHidden();
  };

  /** Enter confirms (once armed, not a held key), Escape cancels. */
  readonly #onKey = (event: KeyboardEvent): void => {
    if (!this.proposal || this.sending) return;
    if (event.key === 'Escape') void this.#decide(null);
    if (event.key === 'Enter' && !event.repeat) {
      event.preventDefault();
      this.#confirm();
    }
  };

  #scheduleArm(): void {
    clearTimeout(this.#armTimer);
    this.armed = false;
    const remaining = this.#delay.remainingMs;
    if (remaining === undefined) return;
    this.#armTimer = setTimeout(() => {
      this.armed = this.#delay.armed;
    }, remaining + 10);
  }

  async #details(): Promise<VoteProposal> {
    if (!this.client) throw new ExtensionError('unavailable', 'The extension is not ready.');
    return this.client.ask('proposal-details', { proposalId: this.proposalId });
  }

  async #load(): Promise<void> {
    try {
      this.proposal = await this.#details();
      this.selected = this.proposal.proposedAnswerId;
      this.#onShown();
    } catch (error) {
      this.message = error instanceof ExtensionError ? error.message : 'This vote request has ended.';
    }
  }

  #confirm(): void {
    // Input before the window was in front for a moment is ignored, as browsers do on their prompts.
    if (!this.#delay.armed || this.selected === undefined) return;
    void this.#decide(this.selected);
  }

  async #decide(answerId: string | null): Promise<void> {
    if (this.sending) return;
    this.sending = true;
    try {
      await this.client?.ask('proposal-decision', { proposalId: this.proposalId, answerId });
      this.message = answerId === null ? 'Vote cancelled. Nothing was sent.' : 'Vote cast.';
      window.close();
    } catch (error) {
      this.message = error instanceof ExtensionError ? error.message : 'This vote request has ended.';
    } finally {
      this.proposal = undefined;
      this.sending = false;
    }
  }

  override render() {
    const proposal = this.proposal;
    if (!proposal) {
      return html`<div class="brand">${this.brand}</div>
        ${
          this.message
            ? html`<p role="alert" data-testid="confirm-message">${this.message}</p>
                <div class="actions">
                  <button
                    type="button"
                    @click=${() => {
                      window.close();
                    }}
                  >
                    Close
                  </button>
                </div>`
            : html`<p>Loading…</p>`
        }`;
    }
    const closes = proposal.closeAt === undefined ? undefined : new Date(proposal.closeAt);
    return html`
      <div class="brand">${this.brand}</div>
      <h1>Confirm your vote</h1>
      <p>
        <span class="site" data-testid="site">${proposal.site}</span> asks you to vote. Nothing is sent until
        you confirm here.
      </p>
      <div class="card">
        <div class="muted" data-testid="club">${proposal.partnerName}</div>
        <div class="question" data-testid="question">${proposal.question}</div>
        <fieldset>
          <legend class="muted">Your answer</legend>
          ${proposal.answers.map(
            (answer) =>
              html`<label class="answer"
                ><input
                  type="radio"
                  name="answer"
                  .value=${answer.id}
                  .checked=${answer.id === this.selected}
                  @change=${() => {
                    this.selected = answer.id;
                  }}
                /><span>${answer.text}</span></label
              >`,
          )}
        </fieldset>
        <dl>
          <dt>Result</dt>
          <dd data-testid="binding">
            ${proposal.binding ? 'Binding: the club commits to the result' : 'Consultative: the club is not bound'}
          </dd>
          <dt>Your weight</dt>
          <dd data-testid="weight">
            Your ${proposal.partnerName} fan tokens, counted up to ${proposal.tokenLimit.toLocaleString()}
          </dd>
          ${
            closes
              ? html`<dt>Closes</dt>
                  <dd>${closes.toLocaleString()}</dd>`
              : nothing
          }
        </dl>
      </div>
      <p class="muted">A vote cannot be changed once cast. The site never sees your tokens.</p>
      <div class="actions">
        <button
          type="button"
          class="primary"
          data-testid="confirm"
          aria-disabled=${this.armed && !this.sending ? 'false' : 'true'}
          @click=${() => {
            this.#confirm();
          }}
        >
          Confirm vote
        </button>
        <button type="button" ?disabled=${this.sending} @click=${() => void this.#decide(null)}>
          Cancel
        </button>
      </div>
      ${this.message ? html`<p role="alert" class="error">${this.message}</p>` : nothing}
    `;
  }
}

if (!customElements.get('fan-extension-confirm'))
  customElements.define('fan-extension-confirm', FanExtensionConfirm);

declare global {
  interface HTMLElementTagNameMap {
    'fan-extension-confirm': FanExtensionConfirm;
  }
}
