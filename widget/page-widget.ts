/**
 * The widget's element code as the script-tag and iframe entries load it (one content-hashed chunk): the page's
 * settings, its live store started from the entry's prefetched read, and both elements.
 */
import { defineTags } from './define-tags.ts';
import { cardDetails } from './fan-poll/details-part.ts';
import type { PollPrefetch } from './delivery/prefetch.ts';
import { usePrefetch } from './store/page-store.ts';
import { widgetConfig } from './store/widget-config.ts';

export { frameTitle } from './iframe/frame-title.ts';

declare global {
  interface Window {
    litNonce?: string;
  }
}

export interface PageWidgetOptions {
  readonly proxyUrl?: string | undefined;
  /** The loading script's nonce, if the page gave it one: Lit's fallback `<style>` carries it. */
  readonly nonce?: string | undefined;
  /** The read the entry started before this chunk arrived. */
  readonly prefetch?: PollPrefetch | undefined;
}

/** Starts the widget on a page: settings, the store's prefetched first read, both elements (once per page). */
export function startPageWidget(options: PageWidgetOptions): void {
  widgetConfig.proxyUrl ??= options.proxyUrl;
  // Where the browser cannot adopt stylesheets, Lit writes a <style> carrying `window.litNonce` (strict CSP).
  if (options.nonce) window.litNonce ??= options.nonce;
  usePrefetch(options.prefetch);
  // A fragment with a parameter may be a sign-in's marker (`src/contracts/sign-in-return.ts`): the details chunk, which
  // takes it out of the address bar (`voting/sign-in-return.ts`), comes now instead of after the first paint. A loose
  // test, to stay within the first paint's budget: on any other such page that chunk only comes a little earlier.
  if (location.hash.includes('=')) cardDetails.load().catch(() => undefined);
  void defineTags();
}
