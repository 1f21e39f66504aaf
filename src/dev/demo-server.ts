import { Hono } from 'hono';
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { proxyRoutes } from '../contracts/proxy-contract.ts';
import { loopbackHost, localPorts } from '../local-defaults.ts';
import { closeServer, listenOnLoopback } from '../node/loopback-server.ts';
import type { Poll } from '../platform/types.ts';
import { viewPoll } from '../polls/poll-view.ts';
import { escapeHtml } from '../contracts/html-escape.ts';

export interface ServeDemoOptions {
  /** 0 picks a free port. Default 4030. */
  readonly port?: number;
  /** The partner proxy the demo's widgets read from; a function when it is known only after the demo listens. */
  readonly proxyUrl: string | (() => string);
  /** Where the built widget is (default `dist/widget/`). */
  readonly widgetDir?: string;
  /**
   * Where the banner's host loader and iframe page come from: `demo` (default) serves them beside the page, so the
   * banner is on the page's origin; `proxy` loads them from the proxy's `/widget/`, as a partner's snippet does, so
   * the banner is on the proxy's origin.
   */
  readonly bannerFrom?: 'demo' | 'proxy';
  readonly fetch?: typeof fetch;
}

export interface RunningDemo {
  readonly url: string;
  close(): Promise<void>;
}

const root = fileURLToPath(new URL('../../', import.meta.url));
const types: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/**
 * The demo's Content Security Policy: strict, as on a careful partner site. Scripts need the page's nonce and
 * `strict-dynamic` passes trust to the modules they import (the widget's hashed chunks); `'self'` is the
 * allowlist older browsers fall back to. No inline script or style, no eval.
 */
function demoContentSecurityPolicy(
  proxyUrl: string,
  nonce?: string,
  bannerFrom: 'demo' | 'proxy' = 'demo',
): string {
  const proxy = new URL(proxyUrl).origin;
  return [
    "default-src 'self'",
    nonce ? `script-src 'nonce-${nonce}' 'strict-dynamic' 'self'` : "script-src 'self'",
    "style-src 'self'",
    `img-src 'self' data: https: http://${loopbackHost}:*`,
    `connect-src 'self' ${proxy}`,
    bannerFrom === 'proxy' ? `frame-src 'self' ${proxy}` : "frame-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
  ].join('; ');
}

/** A fresh nonce for one HTML response. */
function newNonce(): string {
  return randomBytes(18).toString('base64');
}

/**
 * The partner match page of `npm start`: `public/demo/` with the proxy URL and live poll ids filled in, and the
 * built widget under `/widget/` (its iframe page pointed at the same proxy).
 */
export async function serveDemo(options: ServeDemoOptions): Promise<RunningDemo> {
  const widgetDir = options.widgetDir ?? `${root}dist/widget/`;
  const fetchImpl = options.fetch ?? fetch;
  const proxyUrl = (): string =>
    typeof options.proxyUrl === 'function' ? options.proxyUrl() : options.proxyUrl;
  const app = new Hono();

  app.use(async (c, next) => {
    await next();
    // HTML pages set their own, with their nonce.
    if (!c.res.headers.has('Content-Security-Policy'))
      c.header('Content-Security-Policy', demoContentSecurityPolicy(proxyUrl()));
    c.header('X-Content-Type-Options', 'nosniff');
    c.header('Cache-Control', 'no-store');
  });

  app.get('/', async (c) => {
    const page = await readFile(`${root}public/demo/index.html`, 'utf8');
    const ids = await featuredPollIds(proxyUrl(), fetchImpl);
    const nonce = newNonce();
    const bannerFrom = options.bannerFrom ?? 'demo';
    c.header('Content-Security-Policy', demoContentSecurityPolicy(proxyUrl(), nonce, bannerFrom));
    const bannerLoader = `${bannerFrom === 'proxy' ? proxyUrl() : ''}/widget/fan-polls-frame.js`;
    // `?embed=script-tag`: the page with the one-line script tag alone, its cards painted from the element code.
    const embedded =
      c.req.query('embed') === 'script-tag'
        ? page.replace(/ *<!-- recommended-snippet -->[\s\S]*<!-- \/recommended-snippet -->\n/, '')
        : page;
    return c.html(
      fill(embedded, { PROXY_URL: proxyUrl(), NONCE: nonce, BANNER_LOADER: bannerLoader, ...ids }),
    );
  });

  app.get('/widget/embed/poll.html', async (c) => {
    const page = await readFile(`${widgetDir}embed/poll.html`, 'utf8');
    const nonce = newNonce();
    // The card posts its events to the page that frames it: only the demo's own pages may (a partner lists its sites).
    c.header(
      'Content-Security-Policy',
      `${demoContentSecurityPolicy(proxyUrl(), nonce)}; frame-ancestors 'self'`,
    );
    return c.html(
      page
        .replace(
          '<meta name="fan-polls-proxy" content="" />',
          `<meta name="fan-polls-proxy" content="${escapeHtml(proxyUrl())}" />`,
        )
        .replace('<script type="module" src=', `<script type="module" nonce="${nonce}" src=`),
    );
  });

  app.get('/widget/*', (c) => serveFile(c.req.path.slice('/widget/'.length), widgetDir));
  app.get('/demo/*', (c) => serveFile(c.req.path.slice('/demo/'.length), `${root}public/demo/`));

  const { server, url } = await listenOnLoopback(app.fetch, options.port ?? localPorts.demo);
  return { url, close: () => closeServer(server) };
}

/**
 * The page tells one club's match day: the club with the most polls among those with an open one. Its open polls go
 * in the report and the banner, its next poll in the sidebar, and its earlier polls (closed before this hour, so the
 * list's read stays one cache entry an hour) in the list of results: no poll of another club, none twice.
 */
async function featuredPollIds(proxyUrl: string, fetchImpl: typeof fetch): Promise<Record<string, string>> {
  let polls: Poll[] = [];
  try {
    const response = await fetchImpl(`${proxyUrl}${proxyRoutes.polls}?limit=50`, {
      signal: AbortSignal.timeout(5000),
    });
    const body = (await response.json()) as { data?: Poll[] | Poll };
    polls = Array.isArray(body.data) ? body.data : body.data ? [body.data] : [];
  } catch {
    // The cards show their error state and retry; the page itself still loads.
  }
  const now = Date.now();
  const phaseOf = (poll: Poll) => viewPoll(poll, now).phase;
  const clubs = [...new Set(polls.filter((poll) => phaseOf(poll) === 'open').map((poll) => poll.partnerId))];
  const count = (partnerId: string) => polls.filter((poll) => poll.partnerId === partnerId).length;
  const partnerId = clubs.sort((a, b) => count(b) - count(a))[0] ?? '';
  const club = polls.filter((poll) => poll.partnerId === partnerId);
  const open = club.filter((poll) => phaseOf(poll) === 'open');
  const next = club.find((poll) => phaseOf(poll) === 'upcoming') ?? open[2] ?? open[0];
  const id = (poll: Poll | undefined): string => poll?.id ?? 'unknown-poll';
  const hour = new Date(now - (now % 3_600_000)).toISOString().slice(0, 19);
  return {
    POLL_MAIN: id(open[0]),
    POLL_BANNER: id(open[1] ?? open[0]),
    POLL_SIDE: id(next),
    PARTNER_ID: partnerId,
    CLUB: club[0]?.partnerName ?? 'the club',
    RESULTS_BEFORE: hour,
  };
}

async function serveFile(relative: string, folder: string): Promise<Response> {
  if (relative.split('/').some((part) => part === '..' || part.startsWith('.')))
    return new Response('Not found', { status: 404 });
  try {
    const body = await readFile(folder + relative);
    return new Response(body, {
      headers: { 'Content-Type': types[extname(relative)] ?? 'application/octet-stream' },
    });
  } catch {
    return new Response('Not found', { status: 404 });
  }
}

function fill(page: string, values: Readonly<Record<string, string>>): string {
  return page.replace(/\{\{([A-Z_0-9]+)\}\}/g, (match, key: string) =>
    key in values ? escapeHtml(values[key] ?? '') : match,
  );
}
