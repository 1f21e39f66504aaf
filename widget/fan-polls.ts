/**
 * The script-tag embed, a module script: `<script type="module" src=".../fan-polls.js" data-proxy="https://proxy">`.
 * Small on purpose: it starts the batched read of the cards the page shows first, then imports the element code (a
 * content-hashed chunk), so that data and code travel in parallel. Elements added later upgrade too; loading the
 * script twice is harmless (one module per URL, and the tags are defined once).
 */
import { pollIdsToPrefetch, prefetchPolls } from './delivery/prefetch.ts';
import { readProxyUrl } from './store/widget-config.ts';

try {
  // A module script has no `currentScript`: its own tag is the one whose URL is this module's.
  const script = [...document.querySelectorAll<HTMLScriptElement>('script[src]')].find(
    (each) => each.src === import.meta.url,
  );
  const proxyUrl = readProxyUrl(script?.dataset.proxy);
  const prefetch = prefetchPolls(proxyUrl, pollIdsToPrefetch(document, innerHeight));
  import('./page-widget.ts').then(
    ({ startPageWidget }) => {
      startPageWidget({ proxyUrl, nonce: script?.nonce, prefetch });
    },
    (error: unknown) => {
      console.error('Fan Polls could not load.', error);
    },
  );
} catch (error) {
  console.error('Fan Polls could not start.', error);
}
