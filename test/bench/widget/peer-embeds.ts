// The embeds a partner compares the card with, on the same article page: Typeform's embed loader
// (`@typeform/embed`'s `embed.js` and `widget.css`) and giscus (`<giscus-widget>` from the `giscus` package, bundled
// with its Lit into one module as a CDN's `+esm` build would), both pinned in package.json and served gzipped from
// the page's origin like the card's files. Their iframes point at a minimal local stand-in on another origin (as
// form.typeform.com and giscus.app are): Typeform's form page with the form in its HTML, giscus's widget page
// that reads its discussion in one request. The real pages carry far more code than the stand-ins, so these figures
// are the peers' loaders to first paint at best, never worse than the real thing.
import { Hono } from 'hono';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { escapeHtml } from '../../../src/contracts/html-escape.ts';
import { closeServer, listenOnLoopback } from '../../../src/node/loopback-server.ts';
import type { Poll } from '../../../src/platform/types.ts';
import type { EmbedSnippet } from './article-pages.ts';

const require = createRequire(import.meta.url);
const bundleDir = '/tmp/fp-bench-peers/';

/** Where the stand-ins tell the page they show their content (the bench's watcher listens for it). */
const reportReady =
  `<script>requestAnimationFrame(() => parent.postMessage({ benchPeerReady: ` +
  `performance.timeOrigin + performance.now() }, '*'));</script>`;

/** The stand-in's card: question and answers, as the floors draw them. */
const questionMarkup = (poll: Poll): string =>
  `<h2>${escapeHtml(poll.question)}</h2><ul>` +
  poll.answers.map((answer) => `<li>${escapeHtml(answer.answer)}</li>`).join('') +
  `</ul>`;

/** Typeform's documented snippet: its stylesheet, the widget's `div` (the form's URL for its id), then `embed.js`. */
export const typeformSnippet = (backend: () => string): EmbedSnippet => ({
  head: () => `<link rel="stylesheet" href="/peers/typeform/widget.css">`,
  card: (poll) =>
    `<div data-tf-widget="${backend()}/typeform/to/${poll.id}" style="width:100%;height:440px"></div>` +
    `<script src="/peers/typeform/embed.js"></script>`,
});

/** giscus's web component as its package documents it, its `host` the stand-in for giscus.app. */
export const giscusSnippet = (backend: () => string): EmbedSnippet => ({
  head: () => `<script type="module" src="/peers/giscus/giscus.js"></script>`,
  card: (poll) =>
    `<giscus-widget repo="club/match-reports" repoid="R_1" category="Polls" categoryid="C_1" mapping="specific" ` +
    `term="${poll.id}" host="${backend()}/giscus-app" style="display:block;min-height:440px"></giscus-widget>`,
});

/** Bundles `giscus` with its Lit into one minified module (once per run). */
async function bundleGiscus(): Promise<void> {
  await build({
    configFile: false,
    logLevel: 'warn',
    build: {
      outDir: bundleDir,
      emptyOutDir: true,
      minify: true,
      lib: {
        entry: fileURLToPath(import.meta.resolve('giscus')),
        formats: ['es'],
        fileName: () => 'giscus.js',
      },
    },
  });
}

/** The peers' files under `/peers/` of the article server, as a CDN serves them. */
export async function peerAssets(): Promise<ReadonlyMap<string, Buffer>> {
  await bundleGiscus();
  const typeform = require.resolve('@typeform/embed/build/embed.js');
  return new Map([
    ['/peers/typeform/embed.js', await readFile(typeform)],
    ['/peers/typeform/widget.css', await readFile(typeform.replace(/embed\.js$/, 'css/widget.css'))],
    ['/peers/giscus/giscus.js', await readFile(bundleDir + 'giscus.js')],
  ]);
}

/** The stand-ins for form.typeform.com and giscus.app, on an origin of their own. */
export async function servePeerBackends(
  pollById: (id: string) => Poll | undefined,
): Promise<{ url: string; close(): Promise<void> }> {
  const app = new Hono();
  const page = (body: string): string =>
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Stand-in</title></head><body>${body}</body></html>`;
  // Typeform's form page arrives with its form in it.
  app.get('/typeform/to/:id', (c) => {
    const poll = pollById(c.req.param('id'));
    return poll ? c.html(page(questionMarkup(poll) + reportReady)) : c.notFound();
  });
  // giscus's widget page reads its discussion from its API, then draws it.
  app.get('/giscus-app/:lang/widget', (c) =>
    c.html(
      page(
        `<main></main><script>const term = new URLSearchParams(location.search).get('term');` +
          `fetch('../api/discussions?term=' + encodeURIComponent(term)).then((r) => r.text()).then((html) => {` +
          `document.querySelector('main').innerHTML = html;${reportReady.replace(/^<script>|<\/script>$/g, '')} });</script>`,
      ),
    ),
  );
  app.get('/giscus-app/api/discussions', (c) => {
    const poll = pollById(c.req.query('term') ?? '');
    return poll ? c.text(questionMarkup(poll)) : c.notFound();
  });
  const { server, url } = await listenOnLoopback(app.fetch, 0);
  return { url, close: () => closeServer(server) };
}
