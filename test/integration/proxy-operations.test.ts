// The proxy's operations surface over real sockets: the built widget under /widget/ (cache headers by file kind,
// CORS, the iframe page filled in with its CSP), /healthz, /readyz, /metrics behind its bearer token, the access log.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isContentHashed } from '../../src/proxy/widget-routes.ts';
import { canarySecret } from '../support/canary.ts';
import { startSandboxAndProxy, type SandboxAndProxy } from '../support/stack.ts';

const pageOrigin = 'https://www.club.example';
const metricsToken = 'metrics-token-for-tests-0123456789';
let widgetDir: string;
let stack: SandboxAndProxy;
const logLines: string[] = [];

beforeAll(async () => {
  widgetDir = await mkdtemp(join(tmpdir(), 'fan-polls-widget-'));
  await mkdir(join(widgetDir, 'embed'));
  await mkdir(join(widgetDir, 'assets'));
  await writeFile(join(widgetDir, 'fan-polls.js'), 'import("./assets/poll-card-Bx3kQ9aZ.js");\n');
  await writeFile(join(widgetDir, 'assets', 'poll-card-Bx3kQ9aZ.js'), 'export const card = 1;\n');
  await writeFile(join(widgetDir, 'version.json'), '{"version":"1.2.3"}\n');
  await writeFile(
    join(widgetDir, 'embed', 'poll.html'),
    '<!doctype html><html><head><meta name="fan-polls-proxy" content="" /><script src="./poll.js" defer></script></head><body></body></html>\n',
  );
  stack = await startSandboxAndProxy({
    proxy: {
      env: {
        FAN_POLLS_ALLOWED_ORIGINS: `${pageOrigin},https://club.example`,
        FAN_POLLS_WIDGET_DIR: widgetDir,
        FAN_POLLS_METRICS_TOKEN: metricsToken,
        FAN_POLLS_CLIENT_SECRET: canarySecret,
      },
      deps: {
        logSink: (_level, line) => {
          logLines.push(line);
        },
      },
    },
    sandbox: {
      applications: [
        {
          clientId: 'fan-polls-demo',
          clientSecret: canarySecret,
          partnerTag: 'fan-polls-demo',
          name: 'Demo with the canary secret',
          subscribed: true,
          redirectUris: [],
        },
      ],
    },
  });
});

afterAll(async () => {
  await stack.close();
  await rm(widgetDir, { recursive: true, force: true });
});

const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${stack.proxy.url}${path}`, { headers });

describe('the widget served under /widget/', () => {
  it('revalidates entry files on every use (ETag, 304) and lets any page load them', async () => {
    const entry = await get('/widget/fan-polls.js', { Origin: 'https://elsewhere.example' });
    expect(entry.status).toBe(200);
    expect(entry.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(entry.headers.get('cache-control')).toBe('public, no-cache');
    expect(entry.headers.get('access-control-allow-origin')).toBe('*');
    expect(await entry.text()).toContain('poll-card-Bx3kQ9aZ.js');
    const etag = entry.headers.get('etag');
    expect(etag).toMatch(/^".+"$/);
    const again = await get('/widget/fan-polls.js', { 'If-None-Match': etag! });
    expect(again.status).toBe(304);
  });

  it('keeps content-hashed files a year, immutable', async () => {
    const chunk = await get('/widget/assets/poll-card-Bx3kQ9aZ.js');
    expect(chunk.status).toBe(200);
    expect(chunk.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('fills the iframe page with its proxy URL and lets only the allowed origins frame it', async () => {
    const page = await get('/widget/embed/poll.html');
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(`<meta name="fan-polls-proxy" content="${stack.proxy.url}" />`);
    const policy = page.headers.get('content-security-policy') ?? '';
    expect(policy).toContain(`frame-ancestors 'self' ${pageOrigin} https://club.example`);
    expect(policy).toContain("script-src 'self'");
    expect(policy).not.toContain('unsafe-inline');
    expect(page.headers.get('cache-control')).toBe('public, no-cache');
  });

  it('serves the build pinned under /widget/v<any version of its major>/, and names its version for another major', async () => {
    const pinned = await get('/widget/v1.2.3/fan-polls.js');
    expect(pinned.status).toBe(200);
    expect(await pinned.text()).toBe(await (await get('/widget/fan-polls.js')).text());
    expect((await get('/widget/v1.2.3/assets/poll-card-Bx3kQ9aZ.js')).headers.get('cache-control')).toBe(
      'public, max-age=31536000, immutable',
    );
    const page = await get('/widget/v1.2.3/embed/poll.html');
    expect(await page.text()).toContain(`<meta name="fan-polls-proxy" content="${stack.proxy.url}" />`);
    expect(page.headers.get('content-security-policy')).toContain(`frame-ancestors 'self' ${pageOrigin}`);
    for (const sameMajor of ['v1.0.0', 'v1.2.2', 'v1.2.4', 'v1.9.0-beta.1'])
      expect(await (await get(`/widget/${sameMajor}/fan-polls.js`)).text()).toBe(
        await (await get('/widget/fan-polls.js')).text(),
      );
    for (const otherMajor of ['v0.9.0', 'v2.0.0']) {
      const other = await get(`/widget/${otherMajor}/fan-polls.js`);
      expect(other.status).toBe(404);
      expect(((await other.json()) as { error: { message: string } }).error.message).toBe(
        'This proxy serves the widget 1.2.3: /widget/v1.2.3/fan-polls.js',
      );
    }
  });

  it('serves nothing outside the widget folder and no hidden file', async () => {
    for (const path of [
      '/widget/../package.json',
      '/widget/%2e%2e/package.json',
      '/widget/.env',
      '/widget/nope.js',
    ]) {
      expect((await get(path)).status).toBe(404);
    }
  });

  it('tells hashed names from entry names', () => {
    for (const hashed of [
      'assets/index.js',
      'chunk-Bx3kQ9aZ.js',
      'fan-polls.a1b2c3d4.js',
      'embed/poll-D8fk2LmQ.css',
    ])
      expect(isContentHashed(hashed)).toBe(true);
    for (const entry of [
      'fan-polls.js',
      'fan-polls-frame.js',
      'fan-polls.voting.js',
      'custom-elements.json',
      'embed/poll.html',
    ])
      expect(isContentHashed(entry)).toBe(false);
  });
});

describe('operations routes', () => {
  it('answers /healthz and /readyz (the platform reachable, state in memory)', async () => {
    expect((await get('/healthz')).status).toBe(200);
    const ready = await get('/readyz');
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ ok: true, state: 'memory', platform: 'reachable' });
  });

  it('stays ready when the platform does not answer (every instance sees the same platform), and says so', async () => {
    const alone = await startSandboxAndProxy();
    try {
      await alone.sandbox.close();
      const ready = await fetch(`${alone.proxy.url}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({ ok: true, state: 'memory', platform: 'unreachable' });
    } finally {
      await alone.proxy.close();
    }
  });

  it('serves /metrics only with its bearer token, with requests, upstream calls and cache outcomes', async () => {
    await get('/api/polls?limit=2', { Origin: pageOrigin });
    await get('/api/polls?limit=2', { Origin: pageOrigin });
    await get('/api/user/me', { Origin: pageOrigin });
    expect((await get('/metrics')).status).toBe(401);
    expect((await get('/metrics', { Authorization: 'Bearer wrong-token-0123456789' })).status).toBe(401);
    const metrics = await get('/metrics', { Authorization: `Bearer ${metricsToken}` });
    expect(metrics.status).toBe(200);
    const text = await metrics.text();
    expect(text).toMatch(/fan_polls_http_requests_total\{route="\/api\/polls",method="GET",status="200"\} 2/);
    expect(text).toMatch(/fan_polls_http_request_duration_seconds_bucket\{/);
    expect(text).toMatch(
      /fan_polls_upstream_requests_total\{operation="GET \/polls\/1\.0\.8\/polls",outcome="2xx"\} 1/,
    );
    expect(text).toMatch(
      /fan_polls_upstream_requests_total\{operation="POST \/oauth2\/token",outcome="2xx"\} 1/,
    );
    expect(text).toMatch(/fan_polls_poll_cache_total\{outcome="miss"\} 1/);
    expect(text).toMatch(/fan_polls_poll_cache_total\{outcome="hit"\} 1/);
    expect(text).toMatch(/fan_polls_refusals_total\{reason="csrf_header_missing"\} 1/);
    expect(text).toMatch(/fan_polls_active_sessions 0/);
    expect(text).not.toContain(canarySecret);
  });

  it('answers 404 at /metrics when no metrics token is set', async () => {
    const plain = await startSandboxAndProxy();
    try {
      expect((await fetch(`${plain.proxy.url}/metrics`)).status).toBe(404);
    } finally {
      await plain.close();
    }
  });

  it('logs one line per request with its request id, route pattern, status and latency, and no query', async () => {
    const answer = await get('/api/polls?limit=3&search=secret-looking-query', {
      Origin: pageOrigin,
      'X-Request-Id': 'lb-request-42',
    });
    expect(answer.headers.get('x-request-id')).toBe('lb-request-42');
    const line = logLines
      .map((text) => JSON.parse(text) as Record<string, unknown>)
      .find((record) => record.event === 'request' && record.requestId === 'lb-request-42');
    // Free text is refused on public reads (400), and the query is in no log line either way.
    expect(line).toMatchObject({ level: 'info', method: 'GET', route: '/api/polls', status: 400 });
    expect(typeof line?.ms).toBe('number');
    expect(logLines.join('\n')).not.toContain('secret-looking-query');
    const fresh = await get('/healthz', { 'X-Request-Id': 'bad id with spaces' });
    expect(fresh.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});
