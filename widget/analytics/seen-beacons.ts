/**
 * Reports the cards a fan saw to their proxy's analytics (`POST /partner/seen`), loaded after a card's first paint:
 * a card counts once per page view when at least half of it has been visible for a second while the page is
 * visible. Cards seen within two seconds of each other go in one beacon; a page being hidden or left sends what
 * waits at once. The beacon carries a random page-view id (made here, kept nowhere) and each card's poll and
 * tracking parameters; it is sent without credentials (no cookie) and needs no answer.
 */
import {
  analyticsPaths,
  seenCardsPerBeacon,
  type SeenBeacon,
  type SeenCard,
} from '../../src/contracts/analytics-contract.ts';

import type { ReactiveElement } from 'lit';
import type { TrackingParameters } from '../../src/contracts/tracking.ts';

const visibleFor = 1000;
const batchFor = 2000;

const pageView = Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) =>
  byte.toString(16).padStart(2, '0'),
).join('');
/** `<proxy>|<poll>` of every card counted on this page view. */
const counted = new Set<string>();
/** Cards waiting for their beacon, per proxy. */
const waiting = new Map<string, SeenCard[]>();
let flushTimer: ReturnType<typeof setTimeout> | undefined;

/** What the beacons read of a card (`FanPoll`). */
export interface SeenCardElement extends ReactiveElement {
  readonly pollId: string;
  readonly proxyUrl: string | undefined;
  readonly tracking: TrackingParameters;
  readonly store: unknown;
}

/** The watch of each card: a card given another poll (a new `fan-poll-ready`) is watched again. */
const watches = new WeakMap<SeenCardElement, () => void>();

/**
 * Watches `card` (a card reading through a proxy, not a host's `store`) until it has been seen, it leaves the page,
 * or it is watched again for another poll.
 */
export function watchCard(card: SeenCardElement): void {
  watches.get(card)?.();
  const { proxyUrl, pollId, tracking } = card;
  const key = `${proxyUrl ?? ''}|${pollId}`;
  if (
    !card.isConnected ||
    proxyUrl === undefined ||
    card.store !== undefined ||
    counted.has(key) ||
    typeof IntersectionObserver !== 'function'
  )
    return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stop = (): void => {
    observer.disconnect();
    clearTimeout(timer);
    timer = undefined;
    document.removeEventListener('visibilitychange', again);
    card.removeController(controller);
    watches.delete(card);
  };
  const controller = { hostDisconnected: stop };
  // Seen while the page was hidden: the observer is asked again once it shows.
  const again = (): void => {
    if (document.visibilityState !== 'visible') return;
    observer.unobserve(card);
    observer.observe(card);
  };
  const observer = new IntersectionObserver(
    (entries) => {
      const visible = entries.some((entry) => entry.isIntersecting && entry.intersectionRatio >= 0.5);
      if (!visible) {
        clearTimeout(timer);
        timer = undefined;
        return;
      }
      timer ??= setTimeout(() => {
        timer = undefined;
        if (document.visibilityState !== 'visible') return;
        stop();
        if (counted.has(key)) return;
        counted.add(key);
        enqueue(proxyUrl, { poll: pollId, tracking });
      }, visibleFor);
    },
    { threshold: [0, 0.5] },
  );
  observer.observe(card);
  document.addEventListener('visibilitychange', again);
  card.addController(controller);
  watches.set(card, stop);
}

function enqueue(proxyUrl: string, card: SeenCard): void {
  const cards = waiting.get(proxyUrl) ?? [];
  cards.push(card);
  waiting.set(proxyUrl, cards);
  flushTimer ??= setTimeout(flush, batchFor);
}

function flush(): void {
  clearTimeout(flushTimer);
  flushTimer = undefined;
  for (const [proxyUrl, cards] of waiting) {
    for (let start = 0; start < cards.length; start += seenCardsPerBeacon) {
      const beacon: SeenBeacon = { pageView, cards: cards.slice(start, start + seenCardsPerBeacon) };
      // A string body is `text/plain`: a simple request, no preflight; `keepalive` lets it outlive the page.
      fetch(proxyUrl + analyticsPaths.cardsSeen, {
        method: 'POST',
        body: JSON.stringify(beacon),
        credentials: 'omit',
        mode: 'no-cors',
        keepalive: true,
      }).catch(() => undefined);
    }
  }
  waiting.clear();
}

addEventListener('pagehide', flush);
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'hidden') flush();
});
