import { Hono, type Context } from 'hono';
import { drawnCardSettings, type DrawnCardQuery } from '../../contracts/drawn-card-contract.ts';
import { proxyRouteGroups } from '../../contracts/proxy-contract.ts';
import {
  bannerFrameAllow,
  pollIdOfSharePath,
  shareBannerSize,
  shareImagePath,
  shareImageSize,
  shareImageSuffix,
  shareRouteGroups,
  sharePagePath,
  sharePollPattern,
  shareTargetUrl,
  shareTracking,
} from '../../contracts/share-contract.ts';
import { appendTracking, type TrackingParameters } from '../../contracts/tracking.ts';
import { escapeHtml } from '../../contracts/html-escape.ts';
import type { Poll } from '../../platform/types.ts';
import { checkUuid } from '../../platform/query.ts';
import { cachedReadAnswer } from '../cached-read-answer.ts';
import { ProxyError } from '../errors.ts';
import { styleSourcesOf } from '../frame-page-render.ts';
import { pollCacheHeaders, readPublicPoll } from '../public-routes.ts';
import { checkedInput } from '../request-guards.ts';
import { ageOf, etagOf, ifNoneMatchHits, type CachedAnswer } from '../response-cache.ts';
import type { ProxyRuntime } from '../runtime.ts';
import { framePagePath } from '../widget-routes.ts';
import { shareCardOf, type ShareCard } from './share-card.ts';
import { shareImage, type ShareImage, type ShareImageRenderer } from './share-image.ts';
import { sharePage, sharePageSecurityPolicy, sharePageStyles } from './share-page.ts';

/** What a share link says besides its poll: its tracking values and the card's `results` setting. */
interface ShareSettings {
  readonly tracking: TrackingParameters;
  readonly results: DrawnCardQuery['results'];
}

const settingsOf = (query: URLSearchParams): ShareSettings => ({
  tracking: shareTracking(query),
  results: drawnCardSettings(query).results,
});

/** `results` of a link as a query (empty for the default), for the URLs drawn from it. */
const resultsQuery = (results: DrawnCardQuery['results']) =>
  results === undefined ? '' : `?results=${results}`;

/**
 * A poll's share page and image (`/share/polls/<id>` and `<id>.png`) and the oEmbed answer for a share link, all
 * drawn from the proxy's cached public read of the poll and cached as it is (`pollCacheHeaders`, `Age`, ETag, 304).
 * With `renderImage`, the image; without, the page names none and the image's route answers `share_image_not_drawn`.
 */
export function shareRoutes(runtime: ProxyRuntime, renderImage?: ShareImageRenderer): Hono {
  const app = new Hono();
  const { publicUrl, pollCacheSeconds, shareTarget } = runtime.config;
  const cacheHeaders = pollCacheHeaders(pollCacheSeconds);
  const proxyOrigin = new URL(publicUrl).origin;
  const styleSources = styleSourcesOf(`<style>${sharePageStyles}</style>`);

  app.get(sharePollPattern, async (c) => {
    const file = c.req.param('file');
    const image = file.endsWith(shareImageSuffix);
    const pollId = checkedInput(() =>
      checkUuid(image ? file.slice(0, -shareImageSuffix.length) : file, 'pollId'),
    ).toLowerCase();
    const settings = settingsOf(new URL(c.req.url).searchParams);
    if (image && renderImage === undefined) {
      throw new ProxyError('share_image_not_drawn', 'This proxy draws no share images.');
    }
    const read = readPublicPoll(runtime, c, pollId);
    if (image && renderImage !== undefined) {
      // The read's own failure (an unknown poll: 404) before the drawing's.
      await read;
      const drawn = await shareImage(runtime, read, settings.results, renderImage);
      return imageAnswer(c, drawn, cacheHeaders, runtime.now());
    }
    const poll = await read;
    const card = shareCardOf(pollOf(poll), runtime.now(), settings.results);
    const base = `${publicUrl}${sharePagePath(pollId)}`;
    const canonical = `${base}${resultsQuery(settings.results)}`;
    const html = sharePage(card, {
      canonical,
      ...(renderImage === undefined
        ? {}
        : { image: `${publicUrl}${shareImagePath(pollId)}${resultsQuery(settings.results)}` }),
      oembed: `${publicUrl}${shareRouteGroups.oembed}?${new URLSearchParams({ url: canonical, format: 'json' }).toString()}`,
      ...(shareTarget === undefined
        ? {}
        : { target: shareTargetUrl(shareTarget, pollId, settings.tracking) }),
      banner: bannerUrl(publicUrl, pollId, settings),
      bannerSize: shareBannerSize,
    });
    const answer = await answerOf(c, runtime, poll, html, 'text/html; charset=utf-8');
    answer.headers.set('Content-Security-Policy', sharePageSecurityPolicy(await styleSources, proxyOrigin));
    answer.headers.set('Referrer-Policy', 'strict-origin');
    return answer;
  });
  return app;
}

/**
 * oEmbed 1.0 (`GET /oembed?url=<share link>&format=json`) for this proxy's share links: type `rich`, its `html` the
 * banner's iframe within `maxwidth`/`maxheight`, its thumbnail the share image. A URL of another host, not a share
 * link, or of an unknown poll: 404; `format=xml`: 501. Public (`Access-Control-Allow-Origin: *`) and cached as the
 * poll's read is.
 */
export function oembedRoutes(runtime: ProxyRuntime, renderImage?: ShareImageRenderer): Hono {
  const app = new Hono();
  const { publicUrl } = runtime.config;
  const own = new URL(publicUrl);
  app.get('/', async (c) => {
    const format = c.req.query('format') ?? 'json';
    if (format !== 'json') {
      throw new ProxyError('oembed_format_not_implemented', 'Only format=json is answered here.');
    }
    const link = c.req.query('url');
    if (link === undefined || link === '') throw new ProxyError('bad_request', 'Give the share link as url.');
    const pollId = sharedPollOf(link, own);
    if (pollId === undefined) throw new ProxyError('not_found', 'Not a share link of this proxy.');
    const linkQuery = new URL(link).searchParams;
    const settings = settingsOf(linkQuery);
    const poll = await readPublicPoll(runtime, c, pollId);
    const card = shareCardOf(pollOf(poll), runtime.now(), settings.results);
    const width = bounded(shareBannerSize.width, c.req.query('maxwidth'));
    const height = bounded(shareBannerSize.height, c.req.query('maxheight'));
    const body = JSON.stringify({
      version: '1.0',
      type: 'rich',
      title: card.question,
      provider_name: card.partnerName === '' ? 'Fan Polls' : card.partnerName,
      provider_url: `${own.origin}/`,
      cache_age: runtime.config.pollCacheSeconds,
      html: bannerIframe(bannerUrl(publicUrl, pollId, settings), card, width, height),
      width,
      height,
      ...(renderImage === undefined
        ? {}
        : {
            thumbnail_url: `${publicUrl}${shareImagePath(pollId)}${resultsQuery(settings.results)}`,
            thumbnail_width: shareImageSize.width,
            thumbnail_height: shareImageSize.height,
          }),
    });
    return answerOf(c, runtime, poll, body, 'application/json; charset=utf-8', '*');
  });
  return app;
}

/** The poll id of a share link of this proxy (its origin and path), else undefined. */
function sharedPollOf(link: string, own: URL): string | undefined {
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return undefined;
  }
  if (url.origin !== own.origin) return undefined;
  const pollId = pollIdOfSharePath(url.pathname, own.pathname.replace(/\/+$/, ''));
  if (pollId === undefined) return undefined;
  try {
    return checkUuid(pollId, 'pollId').toLowerCase();
  } catch {
    return undefined;
  }
}

/** A size within the consumer's bound (`maxwidth`, `maxheight`: positive whole numbers; anything else is no bound). */
function bounded(size: number, bound: string | undefined): number {
  const limit = Number(bound);
  return bound !== undefined && Number.isInteger(limit) && limit > 0 ? Math.min(size, limit) : size;
}

/** The banner's iframe page for the poll, with the link's tracking values and results setting. */
function bannerUrl(publicUrl: string, pollId: string, settings: ShareSettings): string {
  const query = appendTracking(new URLSearchParams({ poll: pollId }), settings.tracking);
  if (settings.results !== undefined) query.set('results', settings.results);
  return `${publicUrl}${proxyRouteGroups.widget}/${framePagePath}?${query.toString()}`;
}

/** The banner as oEmbed's `html`: an iframe of its page, its title the question (escaped). */
function bannerIframe(src: string, card: ShareCard, width: number, height: number): string {
  return `<iframe src="${escapeHtml(src)}" title="${escapeHtml(card.question)}" width="${String(width)}" height="${String(height)}" allow="${bannerFrameAllow}" loading="lazy" style="border:0;max-width:100%"></iframe>`;
}

/** The platform's poll in a cached public read. */
function pollOf(cached: CachedAnswer): Poll {
  const { data } = JSON.parse(cached.body) as { data?: Poll };
  if (data === undefined) throw new ProxyError('not_found', 'No such poll.');
  return data;
}

/**
 * `body`, drawn from the cached read `poll`, answered as that read is (`cachedReadAnswer`: its `Age`, cache headers,
 * ETag and 304), with `allowedOrigin` as its CORS origin.
 */
async function answerOf(
  c: Context,
  runtime: ProxyRuntime,
  poll: CachedAnswer,
  body: string,
  contentType: string,
  allowedOrigin?: string,
): Promise<Response> {
  const drawn: CachedAnswer = { body, etag: await etagOf(body), storedAt: poll.storedAt };
  const answer = cachedReadAnswer(
    drawn,
    pollCacheHeaders(runtime.config.pollCacheSeconds),
    {
      allowedOrigin,
      ifNoneMatch: c.req.header('If-None-Match'),
      requestId: c.get('requestId'),
      now: runtime.now(),
    },
    contentType,
  );
  return new Response(answer.body, { status: answer.status, headers: answer.headers });
}

/** The share image as a PNG answer, cached as the read it was drawn from (`Age`, cache headers, ETag and 304). */
function imageAnswer(
  c: Context,
  image: ShareImage,
  cacheHeaders: ReturnType<typeof pollCacheHeaders>,
  now: number,
): Response {
  const headers = new Headers({
    'Access-Control-Allow-Origin': '*',
    'Cross-Origin-Resource-Policy': 'cross-origin',
    // The read's age: the image is as old as the poll answer it was drawn from.
    Age: ageOf({ body: '', etag: image.etag, storedAt: image.storedAt }, now),
    'Cache-Control': cacheHeaders['Cache-Control'],
    'CDN-Cache-Control': cacheHeaders['CDN-Cache-Control'],
    ETag: image.etag,
  });
  if (ifNoneMatchHits(c.req.header('If-None-Match'), image.etag))
    return new Response(null, { status: 304, headers });
  headers.set('Content-Type', 'image/png');
  return new Response(image.png, { status: 200, headers });
}
