/**
 * `fan-polls/fan-poll-frame`: the iframe banner for bundled apps. Its element is loaded from the proxy, not bundled:
 * the iframe page it frames must come from the proxy (the page carries the proxy's URL, and a CSP whose
 * `frame-ancestors` are the proxy's allowed origins), and the element finds that page beside its own script.
 */
import { widgetVersion } from '../base/widget-version.ts';
import { readProxyUrl } from '../store/widget-config.ts';
import type { TrackingParameterName } from '../../src/contracts/tracking.ts';

/** `<fan-poll-frame>` as a page sees it: attributes only, read when it connects. */
export interface FanPollFrameElement extends HTMLElement {
  getAttribute(
    name: 'poll-id' | 'theme' | 'lang' | 'results' | TrackingParameterName | (string & {}),
  ): string | null;
}

/** The host loader's URL on `proxy`, pinned to this package's version: `<proxy>/widget/v<version>/fan-polls-frame.js`. */
export function fanPollFrameUrl(proxy: string): string {
  const proxyUrl = readProxyUrl(proxy);
  if (!proxyUrl) throw new TypeError(`Fan Polls: "${proxy}" is not an http(s) URL of a partner proxy.`);
  return `${proxyUrl}/widget/v${widgetVersion}/fan-polls-frame.js`;
}

const loads = new Map<string, Promise<void>>();

/**
 * Defines `<fan-poll-frame>` from the proxy (a native `import()` the bundler leaves alone); resolves once it is
 * defined, rejects when the proxy cannot be reached or does not serve this version. Once per URL.
 */
export function loadFanPollFrame(proxy: string): Promise<void> {
  const url = fanPollFrameUrl(proxy);
  let load = loads.get(url);
  if (!load) {
    load = import(/* @vite-ignore */ /* webpackIgnore: true */ url).then(() => undefined);
    loads.set(url, load);
    load.catch(() => loads.delete(url));
  }
  return load;
}
