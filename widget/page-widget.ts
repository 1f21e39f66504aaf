/**
 * The widget's element code as the script-tag and iframe entries load it (one content-hashed chunk): the page's
 * settings, its live store started from the entry's prefetched read, and both elements.
 */
import { defineTags } from './define-tags.ts';
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
  void defineTags();
}
