// An option for issue 25, measured and not shipped: a card's first paint from markup drawn on a server (Lit SSR, as
// the proxy draws the banner's page), fetched by a small entry and put in place with `setHTMLUnsafe` (a declarative
// shadow root), then hydrated by `fan-polls-hydrate.js`. Beside this build's recommended snippet and the inline-JS
// floor, alternating, on the widget bench's pages and network (`npm run bench -- drawn`). The drawing server is a
// stand-in on an origin of its own that answers `/card/<id>` with `renderFanPoll`'s HTML; the proxy has no such route.
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { Hono } from 'hono';
import type { Browser } from 'playwright-core';
import { closeServer, listenOnLoopback } from '../../src/node/loopback-server.ts';
import type { Poll } from '../../src/platform/types.ts';
import { renderFanPoll } from '../../widget/ssr/render-fan-poll.ts';
import { launchChromium } from '../browser/widget-stack.ts';
import { startSandboxAndProxy } from '../support/stack.ts';
import { ensureWidgetBuilt } from '../support/vite-build.ts';
import { median } from './load-rounds.ts';
import { reserved, snippets, type EmbedSnippet, type PollChoice } from './widget/article-pages.ts';
import { choosePolls } from './widget/bench-polls.ts';
import { caseSlug, serveArticles, type BenchBuild } from './widget/article-server.ts';
import { fast4g, measurePage, type PageFigures } from './widget/measure-page.ts';

const runs = Number(process.env.WIDGET_BENCH_RUNS ?? 5);
const widgetDir = fileURLToPath(new URL('../../dist/widget/', import.meta.url));
const cases = ['open card', 'read-only card'] as const;

/**
 * The entry: each card's drawn markup (preloaded by the page) replaces the card, with its shadow root, as soon as it
 * arrives; then the hydrating bundle makes the cards live. A new element replaces the page's, since `setHTMLUnsafe`
 * attaches a declarative shadow root to the parsed element, not to the one it is called on.
 */
const drawnEntry = `const cards = [...document.querySelectorAll('fan-poll[data-drawn]')];
const draw = (card) => fetch(card.dataset.drawn).then((answer) => answer.text()).then((html) => {
  if (customElements.get('fan-poll') || !('setHTMLUnsafe' in card)) return;
  const box = document.createElement('div');
  box.setHTMLUnsafe(html);
  const drawn = box.querySelector('fan-poll');
  if (drawn) card.replaceWith(drawn);
});
Promise.allSettled(cards.map(draw)).then(() => import('./widget/fan-polls-hydrate.js')).then((widget) =>
  widget.startPageWidget({ proxyUrl: document.querySelector('fan-poll')?.getAttribute('proxy') }));`;

/** The drawing server's `/card/<id>`: `renderFanPoll`'s HTML for each poll, gzipped once. */
async function serveDrawnCards(polls: Iterable<Poll>, proxyUrl: string) {
  const drawn = new Map<string, Buffer>();
  for (const poll of polls)
    drawn.set(
      poll.id,
      gzipSync(await renderFanPoll(poll, { proxy: proxyUrl, eager: true, lang: 'en' }), { level: 9 }),
    );
  const app = new Hono();
  app.get('/card/:id', (c) => {
    const body = drawn.get(c.req.param('id'));
    if (body === undefined) return c.text('Not found', 404);
    return new Response(new Uint8Array(body), {
      headers: {
        'Content-Type': 'text/html; charset=utf-8',
        'Content-Encoding': 'gzip',
        'Access-Control-Allow-Origin': '*',
        'Cache-Control': 'no-store',
      },
    });
  });
  const server = await listenOnLoopback(app.fetch, 0);
  return {
    url: server.url,
    bytes: (id: string) => drawn.get(id)?.length ?? 0,
    close: () => closeServer(server.server),
  };
}

/** The page's head and card for the drawn first paint: the markup preloaded, the hydrating bundle too. */
function drawnSnippet(drawingUrl: () => string, proxyUrl: () => string): EmbedSnippet {
  return {
    head: (_proxy, _banner, page) =>
      reserved +
      page.ids
        .map(
          (id) => `<link rel="preload" as="fetch" crossorigin="anonymous" href="${drawingUrl()}/card/${id}">`,
        )
        .join('') +
      `<link rel="modulepreload" href="widget/fan-polls-hydrate.js">` +
      `<script type="module" src="drawn-entry.js"></script>`,
    card: (poll) =>
      `<fan-poll poll-id="${poll.id}" proxy="${proxyUrl()}" lang="en" eager data-drawn="${drawingUrl()}/card/${poll.id}">` +
      `<p><a href="/polls">Vote in the fan poll</a></p></fan-poll>`,
  };
}

/** When the hydrating bundle finished arriving in one cold load: the earliest a drawn card can take a vote. */
async function hydratingCodeArrival(browser: Browser, url: string): Promise<number | undefined> {
  const context = await browser.newContext({ viewport: { width: 375, height: 740 } });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, ...fast4g });
    await page.goto(url);
    await page.waitForFunction(() => customElements.get('fan-poll') !== undefined, undefined, {
      timeout: 30_000,
    });
    return await page.evaluate(
      () =>
        performance
          .getEntriesByType('resource')
          .find((entry) => entry.name.endsWith('/fan-polls-hydrate.js'))
          ?.toJSON().responseEnd as number | undefined,
    );
  } finally {
    await context.close();
  }
}

export default async function drawnFirstPaintBench(): Promise<void> {
  ensureWidgetBuilt();
  const known: { proxyUrl: string; drawingUrl: string; polls?: PollChoice } = {
    proxyUrl: '',
    drawingUrl: '',
  };
  const builds: BenchBuild[] = [
    { name: 'recommended', widgetDir, snippet: snippets.recommended },
    {
      name: 'drawn',
      widgetDir,
      snippet: drawnSnippet(
        () => known.drawingUrl,
        () => known.proxyUrl,
      ),
    },
    { name: 'inline', widgetDir, snippet: snippets.inline },
  ];
  const articles = await serveArticles(
    builds,
    () => known.proxyUrl,
    () => known.polls!,
    new Map([['/drawn/drawn-entry.js', Buffer.from(drawnEntry)]]),
    widgetDir,
  );
  const stack = await startSandboxAndProxy({
    sandbox: { simulate: false },
    proxy: { env: { FAN_POLLS_ALLOWED_ORIGINS: articles.url } },
  });
  known.proxyUrl = stack.proxy.url;
  known.polls = await choosePolls(known.proxyUrl);
  const open = known.polls.byId.get(known.polls.open)!;
  const readOnly = known.polls.byId.get(known.polls.readOnly)!;
  const drawing = await serveDrawnCards([open, readOnly], known.proxyUrl);
  known.drawingUrl = drawing.url;
  const browser = await launchChromium();
  const results = new Map<string, PageFigures[]>();
  let hydrated: (number | undefined)[];
  try {
    for (let run = 0; run < runs; run += 1)
      for (const benchCase of cases)
        for (const build of run % 2 === 0 ? builds : [...builds].reverse()) {
          const figures = await measurePage(
            browser,
            `${articles.url}/${build.name}/${caseSlug(benchCase)}.html`,
            { banner: false, interactive: false },
          );
          const key = `${benchCase}|${build.name}`;
          results.set(key, [...(results.get(key) ?? []), figures]);
        }
    hydrated = await Promise.all(
      Array.from({ length: 3 }, () => hydratingCodeArrival(browser, `${articles.url}/drawn/open-card.html`)),
    );
  } finally {
    await browser.close();
    await drawing.close();
    await stack.close();
    await articles.close();
  }
  console.log(
    `Chromium, 375x740, Fast 4G through CDP, cold cache, medians of ${String(runs)} runs; ms from navigation start. ` +
      `Drawn markup, gzip: ${String(drawing.bytes(open.id))} B (open), ${String(drawing.bytes(readOnly.id))} B (read-only).`,
  );
  console.table(
    cases.flatMap((benchCase) =>
      builds.map((build) => {
        const figures = results.get(`${benchCase}|${build.name}`) ?? [];
        const ms = median(figures.map((f) => f.dataMs));
        const floor = median((results.get(`${benchCase}|inline`) ?? []).map((f) => f.dataMs));
        return {
          case: benchCase,
          build: build.name,
          'poll on screen': ms.toFixed(0),
          'x inline': (ms / floor).toFixed(2),
          'RT data': median(figures.map((f) => f.roundTripsToData)),
          'CLS max': Math.max(...figures.map((f) => f.layoutShift)).toFixed(3),
          'total kB': (median(figures.map((f) => f.totalBytes)) / 1000).toFixed(1),
        };
      }),
    ),
  );
  console.log(
    `drawn open card: fan-polls-hydrate.js arrived at ${hydrated.map((ms) => ms?.toFixed(0) ?? '?').join(', ')} ms ` +
      `(three cold loads): the card takes a vote once it has run.`,
  );
}
