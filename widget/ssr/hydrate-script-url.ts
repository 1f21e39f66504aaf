import { widgetVersion } from '../base/widget-version.ts';
import { readProxyUrl } from '../store/widget-config.ts';
import { hydrateFileName } from './hydrate-file-name.ts';

/**
 * The proxy's `fan-polls-hydrate.js`, pinned to this package's version (the server's templates and the browser's must
 * be the same build for Lit to hydrate them): `<proxy>/widget/v<version>/fan-polls-hydrate.js`, for a page's
 * `<script type="module" src=... data-proxy=...>`.
 */
export function hydrateScriptUrl(proxy: string): string {
  const proxyUrl = readProxyUrl(proxy);
  if (!proxyUrl) throw new TypeError(`Fan Polls: "${proxy}" is not an http(s) URL of a partner proxy.`);
  return `${proxyUrl}/widget/v${widgetVersion}/${hydrateFileName}`;
}
