import { css, html, LitElement, nothing } from 'lit';
import type { BackgroundClient } from '../shared/background-client.ts';
import { ExtensionError } from '../shared/extension-error.ts';

/** Keeps the worker (and the pending request it holds) alive while the fan reads this window. */
const keepAliveMs = 20_000;

/**
 * The approval window: asks the fan whether one exact origin may ask for their votes. The origin comes from the
 * background (by an approval id), never from the URL, so a crafted link cannot show another origin.
 */
export class FanExtensionApprove extends LitElement {
  static override properties = {
    client: { attribute: false },
    approvalId: { type: String },
    origin: { state: true },
    message: { state: true },
    done: { state: true },
  };

  declare client: BackgroundClient | undefined;
  declare approvalId: string;
  declare origin: string | undefined;
  declare message: string;
  declare done: boolean;
  #keepAlive: ReturnType<typeof setInterval> | undefined;

  constructor() {
    super();
    this.client = undefined;
    this.approvalId = '';
    this.origin = undefined;
    this.message = '';
    this.done = false;
  }

  static override styles = css`
    :host {
      display: block;
      font:
        15px/1.5 system-ui,
        sans-serif;
      color: #111;
      padding: 16px;
    }
    .origin {
      font-family: ui-monospace, monospace;
      font-weight: bold;
      word-break: break-all;
    }
    .actions {
      display: flex;
      gap: 8px;
      margin-top: 16px;
    }
  `;

  override connectedCallback(): void {
    super.connectedCallback();
    void this.#load();
    this.#keepAlive = setInterval(() => {
      void this.#details().catch(() => undefined);
    }, keepAliveMs);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearInterval(this.#keepAlive);
  }

  async #details(): Promise<{ origin: string }> {
    if (!this.client) throw new ExtensionError('unavailable', 'The extension is not ready.');
    return this.client.ask('approval-details', { approvalId: this.approvalId });
  }

  async #load(): Promise<void> {
    try {
      this.origin = (await this.#details()).origin;
    } catch (error) {
      this.message = error instanceof ExtensionError ? error.message : 'This request has ended.';
    }
  }

  async #decide(approve: boolean): Promise<void> {
    try {
      await this.client?.ask('approval-decision', { approvalId: this.approvalId, approve });
      this.done = true;
      window.close();
    } catch (error) {
      this.message = error instanceof ExtensionError ? error.message : 'This request has ended.';
    }
  }

  override render() {
    if (this.message) return html`<p role="alert">${this.message}</p>`;
    if (this.origin === undefined) return html`<p>Loading…</p>`;
    return html`
      <h1>Allow this site to ask for your votes?</h1>
      <p class="origin" data-testid="origin">${this.origin}</p>
      <p>
        The site will be able to see whether you are signed in and how you voted in its polls, and to cast
        votes you choose on its cards. It never sees your tokens. You can revoke it in the Fan Polls popup.
      </p>
      <div class="actions">
        <button type="button" ?disabled=${this.done} @click=${() => void this.#decide(true)}>Allow</button>
        <button type="button" ?disabled=${this.done} @click=${() => void this.#decide(false)}>Deny</button>
      </div>
      ${this.done ? html`<p>Done.</p>` : nothing}
    `;
  }
}

if (!customElements.get('fan-extension-approve'))
  customElements.define('fan-extension-approve', FanExtensionApprove);

declare global {
  interface HTMLElementTagNameMap {
    'fan-extension-approve': FanExtensionApprove;
  }
}
