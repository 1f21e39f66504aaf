import { defineTags } from '../define-tags.ts';
import { readProxyUrl, widgetConfig } from '../store/widget-config.ts';

export interface FanPollsOptions {
  /** The partner proxy's URL for every element without a `proxy` attribute (as `data-proxy` on the script tag). */
  readonly proxy?: string;
}

/**
 * Defines `<fan-poll>` and `<fan-poll-list>` for a bundled app, once per page: a second call, or the script-tag build
 * on the same page, defines nothing twice. The first proxy given is the page's. `<fan-poll>` is defined at once; the
 * promise resolves when `<fan-poll-list>` (its own chunk) is too, and never rejects. On a server (no custom element
 * registry: server-side rendering) it defines nothing, so importing `fan-polls/define` or `fan-polls/react` is safe
 * there; the client's import defines the elements when the page hydrates.
 */
export function defineFanPolls(options: FanPollsOptions = {}): Promise<void> {
  widgetConfig.proxyUrl ??= readProxyUrl(options.proxy);
  if (typeof window === 'undefined' || typeof customElements === 'undefined') return Promise.resolve();
  return defineTags();
}
