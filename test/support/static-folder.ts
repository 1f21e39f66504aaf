// A static host for a built site: every file of one folder on a free loopback port, `index.html` at `/`.
import { readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { closeServer, listenOnLoopback } from '../../src/node/loopback-server.ts';
import type { PageServer } from './page-server.ts';

const contentTypes: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
};

/** Serves `folder` as a CDN or static host would; a missing file (or a path leaving the folder) is a 404. */
export async function serveStaticFolder(folder: string): Promise<PageServer> {
  const { server, url } = await listenOnLoopback(async (request) => {
    const path = decodeURIComponent(new URL(request.url).pathname);
    const file = path.endsWith('/') ? `${path}index.html` : path;
    if (file.includes('..')) return new Response(null, { status: 404 });
    const body = await readFile(join(folder, file)).catch(() => undefined);
    if (!body) return new Response(null, { status: 404 });
    const type = contentTypes[extname(file)] ?? 'application/octet-stream';
    return new Response(body, { headers: { 'Content-Type': type } });
  }, 0);
  return { url, close: () => closeServer(server) };
}
