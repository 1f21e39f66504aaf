/**
 * The script-tag embed, a module script: `<script type="module" src=".../fan-polls.js" data-proxy="https://proxy">`.
 * Small on purpose: it starts the batched read of the cards the page shows first, then imports the element code (a
 * content-hashed chunk), so that data and code travel in parallel. A card whose drawn markup the page preloads (the
 * recommended snippet, `delivery/drawn-cards.ts`) paints from that markup instead, before any element code, which
 * then arrives as `fan-polls-hydrate.js` and makes it live without drawing it again. Elements added later upgrade too;
 * loading the script twice is harmless (one module per URL, and the tags are defined once).
 */
import { drawCard, preloadedDrawnCards } from './delivery/drawn-cards.ts';
import { pollIdsToPrefetch, prefetchPolls } from './delivery/prefetch.ts';
import { readProxyUrl } from './store/widget-config.ts';
import { hydrateFileName } from './ssr/hydrate-file-name.ts';
import { warmNumberFormatsAfterPaint } from './delivery/warm-number-formats.ts';
import type { PageWidgetOptions } from './page-widget.ts';

type StartPageWidget = (options: PageWidgetOptions) => unknown;

try {
  // A module script has no `currentScript`: its own tag is the one whose URL is this module's.
  const script = [...document.querySelectorAll<HTMLScriptElement>('script[src]')].find(
    (each) => each.src === import.meta.url,
  );
  const proxyUrl = readProxyUrl(script?.dataset.proxy);
  const drawn = preloadedDrawnCards(document, proxyUrl);
  const drawnIds = new Set(drawn.map(({ card }) => card.getAttribute('poll-id')));
  const prefetch = prefetchPolls(
    proxyUrl,
    pollIdsToPrefetch(document, innerHeight).filter((id) => !drawnIds.has(id)),
  );
  const start = (startPageWidget: StartPageWidget): unknown =>
    startPageWidget({ proxyUrl, nonce: script?.nonce, prefetch });
  const failed = (error: unknown): void => {
    console.error('Fan Polls could not load.', error);
  };
  if (drawn.length === 0)
    import('./page-widget.ts').then(({ startPageWidget }) => start(startPageWidget), failed);
  else
    // The same release's hydrating bundle, beside this file: its templates are the ones the proxy drew with.
    Promise.allSettled(drawn.map(drawCard))
      .then(() => {
        warmNumberFormatsAfterPaint(drawn[0]?.card.lang ?? '');
        return import(/* @vite-ignore */ new URL(hydrateFileName, import.meta.url).href);
      })
      .then(({ startPageWidget }: { startPageWidget: StartPageWidget }) => start(startPageWidget))
      .catch(failed);
} catch (error) {
  console.error('Fan Polls could not start.', error);
}
