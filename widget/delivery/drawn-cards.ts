import { drawnCardPathOf } from '../../src/contracts/drawn-card-contract.ts';
import { showGettingReady } from '../ssr/early-taps.ts';
import { serverPollAttribute } from '../ssr/server-poll-data.ts';
import { readProxyUrl } from '../store/widget-config.ts';

/** A card of the page whose drawn markup the page preloads (the recommended snippet's), and that URL. */
export interface DrawnCard {
  readonly card: HTMLElement;
  readonly url: string;
}

/**
 * The page's cards to paint from the proxy's drawn markup: those with a `lang` of their own (the language
 * the proxy draws them in, which the page cannot change under them) whose drawn URL (`drawnCardPathOf`, from the card's
 * proxy, poll id or, for a `current` card, `partner-ids`, `lang` and `results`) the page preloads, exactly, so that
 * the read the browser started with the HTML is the one used. The others paint as every card does.
 */
export function preloadedDrawnCards(root: Document, proxyUrl: string | undefined): DrawnCard[] {
  const preloaded = new Set(
    [...root.querySelectorAll<HTMLLinkElement>('link[rel="preload"][as="fetch"]')].map((link) => link.href),
  );
  const drawn: DrawnCard[] = [];
  // A card with a poll id shows that poll (`current` or not): its poll id alone names its drawing.
  for (const card of root.querySelectorAll<HTMLElement>('fan-poll[lang]:is([poll-id],[current])')) {
    const path = drawnCardPathOf((name) => card.getAttribute(name));
    const url = `${readProxyUrl(card.getAttribute('proxy')) ?? proxyUrl}${path}`;
    if (preloaded.has(url)) drawn.push({ card, url });
  }
  return drawn;
}

/**
 * The mark each drawn card leaves in the page's performance timeline as it goes on screen: for a partner's real-user
 * monitoring (and the tests) to tell when, and whether, a card painted from the proxy's drawing.
 */
export const drawnCardMark = 'fan-polls-drawn-card';

/**
 * Paints `card` from its drawn markup: the proxy's `<fan-poll>` is parsed (`setHTMLUnsafe` gives its declarative
 * shadow root) and its shadow content and poll block move into the page's own element, which keeps its attributes
 * and the page's listeners. Its `<style>`s become constructed style sheets, which a page's CSP (`style-src` without
 * `'unsafe-inline'`) allows as it allows Lit's own. It marks `drawnCardMark`. Without a drawn card of that poll in the
 * answer, in a browser that cannot parse one, or with the element already defined, the card is left to paint as every
 * card does.
 *
 * Before its element code has made it live, the card takes taps: an answer is a native radio, which the fan picks with
 * no script and the live card keeps (`ssr/early-taps.ts`). Its action and share buttons show that they are getting
 * ready (their waiting look, `aria-disabled`: dimmed, a progress cursor) until the card is live. A tap before the card
 * is live never signs in, votes nor shares.
 */
export async function drawCard({ card, url }: DrawnCard): Promise<void> {
  // The preload's request: fetch's default credentials mode (`crossorigin="anonymous"`), no header.
  const answer = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  const markup = await answer.text();
  const box = document.createElement('div');
  if (!answer.ok || customElements.get('fan-poll') || card.shadowRoot || !('setHTMLUnsafe' in box)) return;
  box.setHTMLUnsafe(markup);
  const drawn = box.firstElementChild;
  const content = drawn?.shadowRoot;
  const pollBlock = drawn?.querySelector(`:scope > script[${serverPollAttribute}]`);
  if (drawn?.localName !== 'fan-poll' || !content || !pollBlock) return;
  const root = card.attachShadow({ mode: 'open' });
  root.adoptedStyleSheets = [...content.querySelectorAll('style')].map((style) => {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(style.textContent);
    style.remove();
    return sheet;
  });
  root.append(...content.childNodes);
  card.append(pollBlock);
  showGettingReady(root);
  performance.mark(drawnCardMark);
}
