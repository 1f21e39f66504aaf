/**
 * A poll's share link and what is drawn from it: the share page the proxy serves for crawlers and people
 * (`/share/polls/<id>`), its image (`/share/polls/<id>.png`) and the oEmbed answer for it (`/oembed?url=`). One owner
 * for the paths, the image's size, the partner's target template and the tracking a share link carries.
 */
import { appendTracking, cleanTracking, type TrackingParameters } from './tracking.ts';

/**
 * Where the share routes are mounted: route groups of the proxy as `proxyRouteGroups`' are, kept here so that the
 * widget's first paint (which carries that table) does not carry routes only crawlers and oEmbed consumers ask for.
 */
export const shareRouteGroups = {
  /** A poll's share page and image, for links posted anywhere. */
  share: '/share',
  /** oEmbed for share links (`GET /oembed?url=<share link>&format=json`). */
  oembed: '/oembed',
} as const;

const shareGroup = shareRouteGroups.share;

/** Inside `shareGroup`: the page as `<id>`, the image as `<id>.png` (one route, told apart by the suffix). */
export const sharePollPattern = '/polls/:file';
export const shareImageSuffix = '.png';

/** The share image's size: Open Graph's and Twitter's large card (1.91:1). */
export const shareImageSize = { width: 1200, height: 630 } as const;

/** The banner's iframe as an oEmbed answer or the share page shows it, when the consumer gives no bounds. */
export const shareBannerSize = { width: 480, height: 560 } as const;

/**
 * The banner iframe's `allow`: its card, on the proxy's origin inside another site's page, may copy the poll's share
 * link and open the browser's share sheet (both refused to a cross-origin frame without it).
 */
export const bannerFrameAllow = 'clipboard-write; web-share';

/** The placeholder a share target template must hold: the poll's id goes there. */
const shareTargetPlaceholder = '{pollId}';

/** The campaign a share link's visit carries on to the partner's page unless the link names one. */
const shareCampaign = 'share';

export function sharePagePath(pollId: string): string {
  return `${shareGroup}/polls/${encodeURIComponent(pollId)}`;
}

export function shareImagePath(pollId: string): string {
  return `${sharePagePath(pollId)}${shareImageSuffix}`;
}

/** The poll id of a share page's URL path (`/share/polls/<id>`, under `basePath`), or undefined. */
export function pollIdOfSharePath(pathname: string, basePath = ''): string | undefined {
  const prefix = `${basePath}${shareGroup}/polls/`;
  if (!pathname.startsWith(prefix)) return undefined;
  const rest = pathname.slice(prefix.length);
  if (rest === '' || rest.includes('/')) return undefined;
  try {
    return decodeURIComponent(rest);
  } catch {
    return undefined;
  }
}

/**
 * Why a share target template is refused, or undefined when it is good: an absolute URL with `{pollId}`, https (or
 * http when `allowLoopbackHttp` and the host is loopback, which the caller decides), no credentials, no fragment.
 */
export function shareTargetProblem(
  template: string,
  isLoopbackHttpAllowed: (url: URL) => boolean,
): string | undefined {
  if (!template.includes(shareTargetPlaceholder)) return `must contain ${shareTargetPlaceholder}`;
  let url: URL;
  try {
    url = new URL(template.replaceAll(shareTargetPlaceholder, '00000000-0000-4000-8000-000000000000'));
  } catch {
    return 'is not a URL';
  }
  if (url.username !== '' || url.password !== '') return 'must not carry a user name or password';
  if (url.hash !== '') return 'must have no fragment';
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && isLoopbackHttpAllowed(url)) return undefined;
  return 'must be https (http only on loopback in the sandbox preset)';
}

/**
 * The partner's page for `pollId` from the (checked) template, with the share link's tracking values appended and
 * `campaign=share` unless the link gave a campaign. Only the poll id (a checked UUID) and cleaned tracking values
 * come from the request: never a URL.
 */
export function shareTargetUrl(template: string, pollId: string, tracking: TrackingParameters): string {
  const url = new URL(template.replaceAll(shareTargetPlaceholder, encodeURIComponent(pollId)));
  appendTracking(url.searchParams, { ...tracking, campaign: tracking.campaign ?? shareCampaign });
  return url.href;
}

/** A share link's tracking values, cleaned as everywhere (`cleanTracking`). */
export function shareTracking(query: URLSearchParams): TrackingParameters {
  return cleanTracking((name) => query.get(name) ?? undefined);
}
