/**
 * Counts the cards a fan sees on this page (`seen-beacons.ts`), started by the page's live store once its first read
 * is on screen (`store/live-stream.ts`), so that the element code carries none of it: the cards already showing their
 * poll, and every card that shows one from then on (its `fan-poll-ready` is composed, so cards inside a list's shadow
 * root are heard too).
 */
import { afterNextPaint } from '../base/after-next-paint.ts';
import { watchCard, type SeenCardElement } from './seen-beacons.ts';

let started = false;

export function watchPageCards(): void {
  if (started) return;
  started = true;
  document.addEventListener('fan-poll-ready', (event) => {
    const card = event.composedPath()[0];
    if (isCard(card))
      afterNextPaint(() => {
        watchCard(card);
      });
  });
  for (const card of cardsIn(document))
    if (card.shadowRoot?.querySelector('[part="question"]')) watchCard(card);
}

const isCard = (node: EventTarget | undefined): node is SeenCardElement =>
  node instanceof HTMLElement && node.localName === 'fan-poll';

/** The cards in `root` and in the lists' shadow roots inside it. */
function cardsIn(root: Document | ShadowRoot): SeenCardElement[] {
  return [...root.querySelectorAll('fan-poll, fan-poll-list')].flatMap((element) =>
    isCard(element) ? [element] : element.shadowRoot ? cardsIn(element.shadowRoot) : [],
  );
}
