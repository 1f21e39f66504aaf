import { escapeHtml } from '../../contracts/html-escape.ts';
import { shareImageSize } from '../../contracts/share-contract.ts';
import { shareDescription, type ShareCard } from './share-card.ts';
import { pageIconLink, pageIconSource } from '../../contracts/page-icon.ts';

/** Where the share page sends people and what it links to; every URL absolute, built by the caller. */
export interface SharePageLinks {
  /** The share page itself without tracking (`og:url`, canonical). */
  readonly canonical: string;
  /** The share image, when this proxy draws one. */
  readonly image?: string;
  /** The oEmbed discovery link for this page. */
  readonly oembed: string;
  /** The partner's page for the poll (`FAN_POLLS_SHARE_TARGET`), with the tracking values; when configured. */
  readonly target?: string;
  /** The banner's iframe page for the poll, with the tracking values: shown when there is no target. */
  readonly banner: string;
  readonly bannerSize: { readonly width: number; readonly height: number };
}

/** The page's only styles, allowed by their hash (`sharePageSecurityPolicy`): no inline script, no other style. */
export const sharePageStyles =
  'body{margin:0;font:16px/1.5 system-ui,sans-serif;color:#14171f;background:#f5f6f8}' +
  'main{max-width:40rem;margin:0 auto;padding:2rem 1rem}h1{font-size:1.5rem;line-height:1.25;margin:0 0 .5rem}' +
  'p{color:#596070;margin:0 0 1.5rem}a{color:#1d4ed8;font-weight:600}iframe{display:block;border:0;width:100%;max-width:100%}';

/**
 * The share page: the poll's Open Graph and Twitter card (its question, its phase and leading answer where the results
 * show, its image), the oEmbed discovery link, and for people either the way on to the partner's page for the poll or
 * the banner itself. Every platform string is escaped.
 *
 * The way on is a `<meta http-equiv="refresh">` with a link, not a `Location` redirect: crawlers (Facebook, X, Slack,
 * WordPress's oEmbed discovery) read this page's meta tags, which a 30x would hide from them, while a person's browser
 * moves on at once (the link is for a browser that does not).
 */
export function sharePage(card: ShareCard, links: SharePageLinks): string {
  const text = escapeHtml;
  const title = text(card.question);
  const description = text(shareDescription(card));
  const siteName = text(card.partnerName === '' ? 'Fan Polls' : card.partnerName);
  const image =
    links.image === undefined
      ? ['<meta name="twitter:card" content="summary" />']
      : [
          `<meta property="og:image" content="${text(links.image)}" />`,
          `<meta property="og:image:type" content="image/png" />`,
          `<meta property="og:image:width" content="${String(shareImageSize.width)}" />`,
          `<meta property="og:image:height" content="${String(shareImageSize.height)}" />`,
          `<meta property="og:image:alt" content="${title}" />`,
          '<meta name="twitter:card" content="summary_large_image" />',
          `<meta name="twitter:image" content="${text(links.image)}" />`,
        ];
  const onward =
    links.target === undefined
      ? `<iframe src="${text(links.banner)}" title="${title}" width="${String(links.bannerSize.width)}" height="${String(links.bannerSize.height)}"></iframe>`
      : `<p><a href="${text(links.target)}">Vote in the fan poll</a></p>`;
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8" />',
    '<meta name="viewport" content="width=device-width, initial-scale=1" />',
    `<title>${title}</title>`,
    pageIconLink,
    `<meta name="description" content="${description}" />`,
    '<meta property="og:type" content="website" />',
    `<meta property="og:site_name" content="${siteName}" />`,
    `<meta property="og:title" content="${title}" />`,
    `<meta property="og:description" content="${description}" />`,
    `<meta property="og:url" content="${text(links.canonical)}" />`,
    `<meta name="twitter:title" content="${title}" />`,
    `<meta name="twitter:description" content="${description}" />`,
    ...image,
    `<link rel="canonical" href="${text(links.canonical)}" />`,
    `<link rel="alternate" type="application/json+oembed" href="${text(links.oembed)}" title="${title}" />`,
    ...(links.target === undefined
      ? []
      : [`<meta http-equiv="refresh" content="0; url=${text(links.target)}" />`]),
    `<style>${sharePageStyles}</style>`,
    '</head>',
    '<body>',
    '<main>',
    `<h1>${title}</h1>`,
    `<p>${description}</p>`,
    onward,
    '</main>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/**
 * The share page's CSP: no script at all, its one style by hash (`styleSources`, from `styleSourcesOf`), no image but its empty icon,
 * the banner framed from this proxy only, and framed by nobody.
 */
export function sharePageSecurityPolicy(styleSources: readonly string[], proxyOrigin: string): string {
  return [
    "default-src 'none'",
    pageIconSource,
    ['style-src', ...styleSources].join(' '),
    `frame-src ${proxyOrigin}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}
