/**
 * `fan-polls-hydrate.js`, the widget for pages with server-rendered cards (`fan-polls/ssr`, the proxy's banner page):
 * Lit with its hydration support and the element code in one module, so that nothing can evaluate Lit before the
 * support; the parts the element code imports later are chunks of this build (`vite.hydrate.ts`). As a script tag
 * (`<script type="module" src=".../fan-polls-hydrate.js" data-proxy="...">`) it hydrates the page's server-rendered
 * cards and defines the elements for the others; the iframe page imports it instead of the element code when its card
 * came from the proxy.
 */
import './hydrate-support.ts';
import { startPageWidget as startElements, type PageWidgetOptions } from '../page-widget.ts';
import { readProxyUrl } from '../store/widget-config.ts';
import { prepareServerCards } from './hydrate-cards.ts';

export { frameTitle } from '../iframe/frame-title.ts';

/** As the element code's `startPageWidget`, once the page's server-rendered cards are ready to hydrate. */
export async function startPageWidget(options: PageWidgetOptions): Promise<void> {
  await prepareServerCards(document);
  startElements(options);
}

try {
  // Loaded by its own script tag: its `data-proxy` is the page's proxy. Imported by the iframe page: nothing here.
  const script = [...document.querySelectorAll<HTMLScriptElement>('script[src]')].find(
    (each) => each.src === import.meta.url,
  );
  if (script)
    startPageWidget({ proxyUrl: readProxyUrl(script.dataset.proxy), nonce: script.nonce }).catch(
      (error: unknown) => {
        console.error('Fan Polls could not start.', error);
      },
    );
} catch (error) {
  console.error('Fan Polls could not start.', error);
}
