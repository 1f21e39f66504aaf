import { css, html, LitElement, nothing } from 'lit';
import type { Poll } from '../../src/platform/types.ts';

/**
 * One of the fan's polls in the popup: the question, whether the fan voted, each answer with its `voteStatus`, and a
 * vote button per answer while the fan has not voted. Platform strings render as text only.
 */
export class FanExtensionPollItem extends LitElement {
  static override properties = {
    poll: { attribute: false },
    busy: { type: Boolean },
  };

  declare poll: Poll | undefined;
  declare busy: boolean;

  constructor() {
    super();
    this.poll = undefined;
    this.busy = false;
  }

  static override styles = css`
    :host {
      display: block;
      padding: 8px 0;
      border-bottom: 1px solid #d8dce3;
    }
    h3 {
      margin: 0 0 4px;
      font-size: 14px;
    }
    ul {
      list-style: none;
      margin: 0;
      padding: 0;
    }
    li {
      display: flex;
      justify-content: space-between;
      align-items: center;
      gap: 8px;
      margin: 2px 0;
    }
    .status {
      font-size: 12px;
      color: #444;
    }
    .voted {
      font-size: 12px;
      color: #0b6b2f;
    }
  `;

  #vote(answerId: string): void {
    if (!this.poll) return;
    this.dispatchEvent(
      new CustomEvent<{ pollId: string; answerId: string }>('fan-extension-vote', {
        detail: { pollId: this.poll.id, answerId },
        bubbles: true,
        composed: true,
      }),
    );
  }

  override render() {
    const poll = this.poll;
    if (!poll) return nothing;
    const canVote = poll.userVote !== true && poll.status !== 'cancelled';
    return html`
      <h3>${poll.question}</h3>
      <div class="voted" data-testid="user-vote">
        ${poll.userVote === true ? 'You voted' : 'Not voted yet'}
      </div>
      <ul>
        ${poll.answers.map(
          (answer) =>
            html`<li>
              <span>${answer.answer}</span>
              ${answer.voteStatus ? html`<span class="status" data-testid="vote-status">${answer.voteStatus}</span>` : nothing}
              ${
                canVote
                  ? html`<button
                      type="button"
                      data-answer-id=${answer.id}
                      ?disabled=${this.busy}
                      @click=${() => {
                        this.#vote(answer.id);
                      }}
                    >
                      Vote
                    </button>`
                  : nothing
              }
            </li>`,
        )}
      </ul>
    `;
  }
}

if (!customElements.get('fan-extension-poll-item'))
  customElements.define('fan-extension-poll-item', FanExtensionPollItem);

declare global {
  interface HTMLElementTagNameMap {
    'fan-extension-poll-item': FanExtensionPollItem;
  }
}
