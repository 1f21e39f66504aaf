/**
 * What a card that cannot show a poll shows or says: a read that failed (with a retry where one can help), a card
 * the partner left without a poll id or a proxy. In the details chunk: no poll's first paint needs it.
 */
import { html, nothing, type TemplateResult } from 'lit';
import { detailWords as words } from '../i18n/detail-words.ts';
import type { CardStrings } from '../i18n/strings.ts';
import { followCurrent, type CurrentCard } from './follow-current.ts';

/** A card whose poll could not be read: an unknown poll stays unknown (no retry could help), anything else may retry. */
export function renderError(
  code: string | undefined,
  strings: CardStrings,
  retry: () => void,
): TemplateResult {
  const w = words(strings);
  return html`<div part="card" class="card" role="alert">
    <p>${code === 'not_found' ? w.errorNotFound : w.errorLoad}</p>
    ${
      code === 'not_found'
        ? nothing
        : html`<div part="actions">
            <button part="button" type="button" @click=${retry}>${w.retry}</button>
          </div>`
    }
  </div>`;
}

/**
 * Once per card without a poll id or a proxy: a `current` card starts following its club's current poll (it has no
 * poll id until the proxy names one); any other card says in the console what the partner must add for it to show a
 * poll at all.
 */
export function warnMisconfigured(card: CurrentCard): void {
  if (card.hasAttribute('current')) {
    followCurrent(card);
    return;
  }
  const missing =
    card.pollId.trim() === '' ? 'poll-id="<poll id>"' : 'a proxy (data-proxy on the script tag)';
  console.warn(`Fan Polls: <fan-poll> needs ${missing}.`, card);
}
