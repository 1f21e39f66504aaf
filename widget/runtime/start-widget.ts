import { defineTags } from '../define-tags.ts';
import { setStoreFactory } from '../store/page-store.ts';
import { firstReadFromProxy } from '../store/first-read-from-proxy.ts';
import { createFirstReadStore } from '../store/first-read-store.ts';
import { widgetConfig } from '../store/widget-config.ts';
import { exposeRuntime, loadPart, scriptPartLoader, setPartLoader } from './parts.ts';
import { sharedModules } from './shared-modules.ts';

declare global {
  interface Window {
    litNonce?: string;
  }
}

export interface StartOptions {
  /** Where the part files are: the folder of the loading script. */
  readonly partsBase: string;
  /** The loading script's nonce, if the page gave it one: parts and Lit's fallback styles carry it. */
  readonly nonce?: string | undefined;
  readonly proxyUrl?: string | undefined;
}

/** Starts a script build of the widget (script tag or iframe page): store, part loading, both elements. */
export function startWidget(options: StartOptions): void {
  widgetConfig.proxyUrl ??= options.proxyUrl;
  // The elements' fallback <style> (no adoptedStyleSheets) needs the page's nonce under a strict CSP; the base
  // element reads it from Lit's own global for it.
  if (options.nonce) window.litNonce ??= options.nonce;
  exposeRuntime(sharedModules);
  setPartLoader(scriptPartLoader(options.partsBase, options.nonce));
  setStoreFactory((proxyUrl) =>
    createFirstReadStore(firstReadFromProxy(proxyUrl), (firstRead) =>
      loadPart('live').then(({ liveProxyStore }) => liveProxyStore(proxyUrl)(firstRead)),
    ),
  );
  defineTags();
}
