// A partner's match page on loopback for the widget's browser tests: the script tag of the proxy's versioned widget,
// then `body` (cards, banners).
import { widgetVersion } from '../../widget/base/widget-version.ts';
import { servePage, type PageServer } from '../support/page-server.ts';

/** Serves the page; `banner`: the banner's loader too (`fan-polls-frame.js`). */
export function servePartnerPage(
  proxyUrl: string,
  body: string,
  options: { readonly banner?: boolean } = {},
): Promise<PageServer> {
  const widget = `${proxyUrl}/widget/v${widgetVersion}`;
  const frame = options.banner ? `\n<script type="module" src="${widget}/fan-polls-frame.js"></script>` : '';
  return servePage(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Match page</title>
<script type="module" src="${widget}/fan-polls.js" data-proxy="${proxyUrl}"></script>${frame}</head>
<body>${body}</body></html>`);
}
