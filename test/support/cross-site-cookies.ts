// What a Chromium configuration does with a site's cookies on a page of another site, measured rather than assumed:
// whether an unpartitioned SameSite=None cookie is sent (third-party cookies allowed) and whether a Partitioned one
// set by the site itself is (it must not be: CHIPS keeps it in the site's own partition).
import type { BrowserContext } from 'playwright-core';
import { closeServer, listenOnLoopback } from '../../src/node/loopback-server.ts';

export interface CrossSiteCookies {
  /** An unpartitioned `SameSite=None; Secure` cookie of 127.0.0.1 went with a credentialed fetch from localhost. */
  readonly thirdPartyCookiesSent: boolean;
  /** A `Partitioned` cookie set by 127.0.0.1 as the top-level site went with that fetch (CHIPS says never). */
  readonly partitionedCookieSent: boolean;
}

const unpartitioned = 'fan-polls-probe-unpartitioned';
const partitioned = 'fan-polls-probe-partitioned';

/**
 * Serves one loopback port reached as two sites (`http://127.0.0.1:<port>` and `http://localhost:<port>`): a top-level
 * visit to 127.0.0.1 sets both probe cookies, then a page on localhost fetches 127.0.0.1 with credentials and reads
 * back which cookies arrived. The probe cookies are removed from `context` afterwards.
 */
export async function probeCrossSiteCookies(context: BrowserContext): Promise<CrossSiteCookies> {
  const { server, port } = await listenOnLoopback((request) => {
    const url = new URL(request.url);
    if (url.pathname === '/set') {
      const headers = new Headers({ 'Content-Type': 'text/html; charset=utf-8' });
      headers.append('Set-Cookie', `${unpartitioned}=1; Path=/; Secure; SameSite=None`);
      headers.append('Set-Cookie', `${partitioned}=1; Path=/; Secure; SameSite=None; Partitioned`);
      return new Response('<!doctype html><title>set</title>', { headers });
    }
    if (url.pathname === '/read') {
      const origin = request.headers.get('Origin') ?? '';
      return Response.json(
        { cookie: request.headers.get('Cookie') ?? '' },
        { headers: { 'Access-Control-Allow-Origin': origin, 'Access-Control-Allow-Credentials': 'true' } },
      );
    }
    return new Response('<!doctype html><title>page</title>', {
      headers: { 'Content-Type': 'text/html; charset=utf-8' },
    });
  }, 0);
  const page = await context.newPage();
  try {
    await page.goto(`http://127.0.0.1:${port}/set`);
    await page.goto(`http://localhost:${port}/page`);
    const cookie = await page.evaluate(async (readUrl) => {
      const response = await fetch(readUrl, { credentials: 'include' });
      return ((await response.json()) as { cookie: string }).cookie;
    }, `http://127.0.0.1:${port}/read`);
    const names = cookie.split(';').map((pair) => pair.split('=')[0]!.trim());
    return {
      thirdPartyCookiesSent: names.includes(unpartitioned),
      partitionedCookieSent: names.includes(partitioned),
    };
  } finally {
    await page.close();
    await context.clearCookies({ name: /^fan-polls-probe-/ });
    await closeServer(server);
  }
}
