import { Hono, type Context } from 'hono';
import { proxyRouteGroups } from '../contracts/proxy-contract.ts';
import { isCspSource, loopbackOriginSources } from '../contracts/loopback-origins.ts';
import { ProxyError } from './errors.ts';
import { pathInGroup } from './request-path.ts';
import { ageOf, etagOf, ifNoneMatchHits } from './response-cache.ts';
import type { ProxyRuntime } from './runtime.ts';
import { unversionedPath } from './widget-version.ts';
import { escapeHtml } from '../contracts/html-escape.ts';

import type { FileReader } from './file-reader.ts';
import { withContentCoding } from './content-coding.ts';
import { inPreferredCoding } from './precompressed-answer.ts';
import { withPollPreload } from '../../widget/iframe/frame-preload.ts';
import type { CardRenderer } from './drawn-per-answer.ts';
import { renderedFramePage, type RenderedFramePage } from './frame-page-render.ts';
import { pollCacheHeaders, publicCurrentPoll } from './public-routes.ts';

const contentTypes: Readonly<Record<string, string>> = {
  js: 'text/javascript; charset=utf-8',
  mjs: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  html: 'text/html; charset=utf-8',
  json: 'application/json; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
  map: 'application/json; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
  woff2: 'font/woff2',
};

/** The iframe page: its proxy URL is filled in here, and it gets its own CSP. */
export const framePagePath = 'embed/poll.html';
/** The session frame's page (`frame-session-contract.ts`): the banner's CSP, framed by the allowed pages only. */
const sessionFramePagePath = 'embed/session.html';
/** Its stylesheet, inline in a page whose card the proxy drew. */
const framePageStylesPath = 'embed/poll.css';
const emptyProxyMeta = '<meta name="fan-polls-proxy" content="" />';

/**
 * A file whose name carries a content hash (Vite's `name-Hash1234.js`, or anything under `assets/`): its content
 * never changes under that name, so browsers and CDNs keep it a year. Hashes are 8+ characters with a digit or a
 * capital, which no entry name here has (`fan-polls.voting.js`, `custom-elements.json`).
 */
export function isContentHashed(path: string): boolean {
  if (path.startsWith('assets/')) return true;
  const name = path.slice(path.lastIndexOf('/') + 1);
  const hash = /[.-]([A-Za-z0-9_]{8,})\.[a-z0-9]+$/.exec(name)?.[1];
  return hash !== undefined && /[0-9A-Z]/.test(hash);
}

/**
 * The built widget under `/widget/` and, pinned, `/widget/v<version>/` (any version of the major served:
 * `widget-version.ts`): whatever `dist/widget/` holds (the script-tag bundle, its parts, the iframe page
 * and its loader, or a module build's hashed chunks). Hashed files are immutable for a year; entry files are
 * revalidated on every use (ETag, 304), so a deploy reaches every page at once. Public code without credentials:
 * any page may load it (`Access-Control-Allow-Origin: *`, which module scripts on another origin need). The iframe
 * page gets this proxy's URL and a CSP whose `frame-ancestors` are the allowed origins; with `renderCard` (Node), its card
 * drawn from the poll's cached read (`frame-page-render.ts`), cached as that read is.
 */
export function widgetRoutes(runtime: ProxyRuntime, read: FileReader, renderCard?: CardRenderer): Hono {
  const app = new Hono();
  const tagged = new Map<string, Promise<{ body: Uint8Array<ArrayBuffer>; etag: string }>>();
  const framePage = framePageOf(runtime);
  const readCurrent = publicCurrentPoll(runtime);
  let styles: Promise<string | undefined> | undefined;
  const framePageStyles = () =>
    (styles ??= read(framePageStylesPath).then((bytes) => bytes && new TextDecoder().decode(bytes)));

  app.get('/*', async (c) => {
    const requested = pathInGroup(c, proxyRouteGroups.widget);
    // `/widget/v<version>/...`: the URL a partner pins, the same files while the proxy serves that version.
    const path = await unversionedPath(requested, read);
    const bytes = await read(path);
    if (bytes === undefined) throw new ProxyError('not_found', 'No such widget file.');
    let file = tagged.get(path);
    if (file === undefined) {
      const body = (path === framePagePath ? framePage(bytes) : bytes) as Uint8Array<ArrayBuffer>;
      file = etagOf(body).then((etag) => ({ body, etag }));
      tagged.set(path, file);
    }
    let { body, etag } = await file;
    if (path === framePagePath) {
      // Its poll's read preloaded in the page (one round trip less); the page, and so its ETag, per poll.
      const page = new TextDecoder().decode(body);
      const filled = withPollPreload(page, runtime.config.publicUrl, c.req.query('poll'));
      const drawn =
        renderCard &&
        (await renderedFramePage(filled, await framePageStyles(), runtime, c, renderCard, readCurrent));
      if (drawn) return drawnFramePage(c, runtime, drawn);
      if (filled !== page) {
        body = new TextEncoder().encode(filled);
        etag = await etagOf(body);
      }
    }
    c.header('Access-Control-Allow-Origin', '*');
    c.header('Cross-Origin-Resource-Policy', 'cross-origin');
    const sessionFrame = path === sessionFramePagePath;
    c.header(
      'Cache-Control',
      isContentHashed(path) ? 'public, max-age=31536000, immutable' : 'public, no-cache',
    );
    c.header('ETag', etag);
    if (path === framePagePath || sessionFrame) {
      c.header('Content-Security-Policy', framePageSecurityPolicy(runtime));
      c.header('Referrer-Policy', sessionFrame ? 'no-referrer' : 'strict-origin');
    }
    const built = path !== framePagePath;
    if (ifNoneMatchHits(c.req.header('If-None-Match'), etag)) {
      const notModified = c.body(null, 304);
      return built ? inPreferredCoding(c, read, path, notModified) : notModified;
    }
    c.header(
      'Content-Type',
      contentTypes[path.slice(path.lastIndexOf('.') + 1)] ?? 'application/octet-stream',
    );
    // A built file as the build compressed it; the iframe page is filled in here, so it goes out as it is.
    return built ? inPreferredCoding(c, read, path, c.body(body, 200)) : c.body(body, 200);
  });
  return app;
}

function framePageOf(runtime: ProxyRuntime): (bytes: Uint8Array) => Uint8Array {
  return (bytes) => {
    const page = new TextDecoder().decode(bytes);
    const filled = page.replace(
      emptyProxyMeta,
      `<meta name="fan-polls-proxy" content="${escapeHtml(runtime.config.publicUrl)}" />`,
    );
    return new TextEncoder().encode(filled);
  };
}

/**
 * The iframe page with its card drawn: cached as the poll read it was drawn from is (revalidated by browsers, kept
 * `s-maxage` by shared caches, its `Age` the read's), with a 304 for its ETag, its CSP allowing the card's styles, and
 * gzipped for a client that takes it.
 */
function drawnFramePage(c: Context, runtime: ProxyRuntime, drawn: RenderedFramePage): Response {
  const cacheHeaders = pollCacheHeaders(runtime.config.pollCacheSeconds);
  c.header('Access-Control-Allow-Origin', '*');
  c.header('Cross-Origin-Resource-Policy', 'cross-origin');
  c.header('Age', ageOf(drawn.poll, runtime.now()));
  c.header('Cache-Control', cacheHeaders['Cache-Control']);
  c.header('CDN-Cache-Control', cacheHeaders['CDN-Cache-Control']);
  c.header('ETag', drawn.etag);
  c.header('Content-Security-Policy', framePageSecurityPolicy(runtime, drawn.styleSources));
  c.header('Referrer-Policy', 'strict-origin');
  // Gzipped once per drawing, as the drawn card is: the page is most of what the banner waits for.
  if (ifNoneMatchHits(c.req.header('If-None-Match'), drawn.etag))
    return withContentCoding(c.body(null, 304), drawn.gzipped, c);
  c.header('Content-Type', 'text/html; charset=utf-8');
  return withContentCoding(c.body(drawn.body, 200), drawn.gzipped, c);
}

/**
 * The iframe page's CSP: its own scripts and styles only, no inline code, reads from this proxy, images over https
 * (and the sandbox's loopback logos), and framed only by the allowed origins (the card posts its events to the page
 * that frames it). A page with its card drawn allows that card's inline styles by their hashes (`styleSources`), which
 * stay valid however long the page is cached, where a nonce would not.
 */
function framePageSecurityPolicy(runtime: ProxyRuntime, styleSources: readonly string[] = []): string {
  const { config } = runtime;
  const proxyOrigin = new URL(config.publicUrl).origin;
  return [
    "default-src 'none'",
    "script-src 'self'",
    ["style-src 'self'", ...styleSources].join(' '),
    `img-src 'self' data: https:${config.allowInsecureRequests ? ' http://127.0.0.1:* http://localhost:*' : ''}`,
    `connect-src 'self' ${proxyOrigin}`,
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors 'self' ${[...config.allowedOrigins.filter(isCspSource), ...(config.allowLoopbackOrigins ? loopbackOriginSources : [])].join(' ')}`,
  ].join('; ');
}
