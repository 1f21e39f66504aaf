import type { FanPoll } from '../fan-poll/fan-poll.ts';
import { cardDetails } from '../fan-poll/details-part.ts';
import { loadLanguage } from '../i18n/language.ts';
import { keepEarlyTaps } from './early-taps.ts';
import { takeServerPoll } from './server-poll-data.ts';

/**
 * Readies the server-rendered cards in `root` (those with a declarative shadow root) to hydrate, before `<fan-poll>` is
 * defined: each gets back the poll it was drawn with, and the parts its first render reads (the details chunk, its
 * language) are loaded, so that the browser's first render is the server's and Lit hydrates it without drawing it
 * again; what the fan tapped meanwhile is kept (`early-taps.ts`). Never rejects: a part that failed to load leaves the
 * card to render as any card does.
 */
export async function prepareServerCards(root: ParentNode): Promise<void> {
  const waits: Promise<unknown>[] = [];
  const cards: FanPoll[] = [];
  for (const card of root.querySelectorAll<FanPoll>('fan-poll')) {
    if (!card.shadowRoot || customElements.get('fan-poll')) continue;
    cards.push(card);
    const poll = takeServerPoll(card);
    // Before the upgrade an own property; Lit hands it to the element's first update.
    if (poll) card.serverPoll = poll;
    waits.push(loadLanguage(card.getAttribute('lang')));
  }
  if (waits.length > 0) waits.push(cardDetails.load());
  await Promise.allSettled(waits);
  keepEarlyTaps(cards);
}
