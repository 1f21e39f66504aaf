/**
 * The card's share action (details chunk), once the fan voted and on closed or disclosed polls: the poll's share link
 * on the proxy (`/share/polls/<id>`, which unfurls with the question and the proxy's image), with the card's tracking
 * parameters. The browser's share sheet where it has one (phones), else the link is copied and the card says so.
 */
import { html, nothing, type TemplateResult } from 'lit';
import { sharePagePath } from '../../src/contracts/share-contract.ts';
import { appendTracking, type TrackingParameters } from '../../src/contracts/tracking.ts';
import { FanPollShareEvent } from '../events/fan-poll-share-event.ts';
import { detailWords } from '../i18n/detail-words.ts';
import type { CardStrings } from '../i18n/strings.ts';
import type { PollView } from '../store/poll-model.ts';

/** What sharing needs of its card (`FanPoll`). */
export interface SharingCard extends HTMLElement {
  readonly pollId: string;
  readonly tracking: TrackingParameters;
  readonly proxyUrl: string | undefined;
  requestUpdate(): void;
}

/** Cards whose link was just copied: they say so until the next poll. */
const copied = new WeakMap<SharingCard, string>();

/** The poll's share link for this card, or undefined without a proxy. */
function shareUrl(card: SharingCard, pollId: string): string | undefined {
  const proxy = card.proxyUrl;
  if (!proxy) return undefined;
  const url = new URL(proxy.replace(/\/+$/, '') + sharePagePath(pollId));
  appendTracking(url.searchParams, card.tracking);
  return url.href;
}

/** The share button, and the confirmation once the link was copied. */
export function renderShareAction(
  card: SharingCard,
  view: PollView,
  strings: CardStrings,
): TemplateResult | typeof nothing {
  const url = shareUrl(card, view.id);
  if (!url) return nothing;
  const words = detailWords(strings);
  return html`<button
      part="share"
      type="button"
      class="share"
      @click=${() => {
        void share(card, view, url);
      }}
    >
      ${words.share}</button
    ><span class="note" role="status">${copied.get(card) === view.id ? words.linkCopied : ''}</span>`;
}

async function share(card: SharingCard, view: PollView, url: string): Promise<void> {
  const data = { title: view.question, url };
  // Browsers without a share sheet (most desktops) have neither method.
  const api = navigator as Partial<Pick<Navigator, 'share' | 'canShare'>>;
  const sheet = typeof api.share === 'function' && (api.canShare?.(data) ?? true);
  try {
    if (sheet) await api.share?.(data);
    else {
      await navigator.clipboard.writeText(url);
      copied.set(card, view.id);
      card.requestUpdate();
    }
  } catch (error) {
    // The fan closed the share sheet, or the page may not write the clipboard: nothing was shared.
    if (!(error instanceof DOMException && error.name === 'AbortError'))
      console.warn('Fan Polls: the poll could not be shared.', error);
    return;
  }
  card.dispatchEvent(
    new FanPollShareEvent({
      pollId: card.pollId,
      tracking: card.tracking,
      url,
      via: sheet ? 'share-sheet' : 'clipboard',
    }),
  );
}
