// Serves the benchmark's article pages and each build's widget folder, gzipped as a CDN would, from one origin:
// `/<build>/<case>.html` and `/<build>/widget/...`.
import { Hono } from 'hono';
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { gzipSync } from 'node:zlib';
import { closeServer, listenOnLoopback } from '../../../src/node/loopback-server.ts';
import { withPollPreload } from '../../../widget/iframe/frame-preload.ts';
import { articlePage, benchCases, type EmbedSnippet, type PollChoice } from './article-pages.ts';

export interface BenchBuild {
  readonly name: string;
  readonly widgetDir: string;
  readonly snippet: EmbedSnippet;
}

const types: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

export const caseSlug = (benchCase: string): string => benchCase.replace(/\W+/g, '-');

export async function serveArticles(
  builds: readonly BenchBuild[],
  proxyUrl: () => string,
  polls: () => PollChoice,
  /** Other files by path (the peers' loaders), served the same way. */
  files: ReadonlyMap<string, Buffer> = new Map(),
  /**
   * The folder the proxy serves under `/widget/`: a build from it gets its iframe page from the proxy, as a partner's
   * banner does (the proxy draws its card into it: src/proxy/frame-page-render.ts); other builds an imitation of it.
   */
  proxyWidgetDir?: string,
): Promise<{ url: string; close(): Promise<void> }> {
  const app = new Hono();
  const gzip = (body: string | Buffer, type: string): Response =>
    new Response(gzipSync(body, { level: 9 }), {
      headers: { 'Content-Type': type, 'Content-Encoding': 'gzip', 'Cache-Control': 'no-store' },
    });
  for (const [path, body] of files)
    app.get(path, () => gzip(body, types[extname(path)] ?? 'application/octet-stream'));
  for (const build of builds) {
    // The element code's files, for a snippet that preloads them (a build before version.json listed them: none).
    const versionFile = build.widgetDir + 'version.json';
    const files = (existsSync(versionFile) ? JSON.parse(readFileSync(versionFile, 'utf8')) : {}) as {
      scriptTagCard?: string[];
      readOnlyCard?: string[];
    };
    const built = { scriptTagCard: files.scriptTagCard ?? [], readOnlyCard: files.readOnlyCard ?? [] };
    for (const benchCase of benchCases)
      app.get(`/${build.name}/${caseSlug(benchCase)}.html`, () =>
        gzip(articlePage(build.snippet, benchCase, proxyUrl(), polls(), built), types['.html']!),
      );
    app.get(`/${build.name}/widget/*`, async (c) => {
      const path = c.req.path.slice(`/${build.name}/widget/`.length);
      if (path.split('/').some((part) => part === '..' || part.startsWith('.')))
        return c.text('Not found', 404);
      try {
        if (path === 'embed/poll.html' && build.widgetDir === proxyWidgetDir) {
          const fromProxy = await fetch(`${proxyUrl()}/widget/embed/poll.html${new URL(c.req.url).search}`);
          return gzip(await fromProxy.text(), types['.html']!);
        }
        let body = await readFile(build.widgetDir + path);
        if (path === 'embed/poll.html')
          body = Buffer.from(
            withPollPreload(
              body
                .toString()
                .replace(
                  'name="fan-polls-proxy" content=""',
                  `name="fan-polls-proxy" content="${proxyUrl()}"`,
                ),
              proxyUrl(),
              c.req.query('poll'),
            ),
          );
        return gzip(body, types[extname(path)] ?? 'application/octet-stream');
      } catch {
        return c.text('Not found', 404);
      }
    });
  }
  const { server, url } = await listenOnLoopback(app.fetch, 0);
  return { url, close: () => closeServer(server) };
}
