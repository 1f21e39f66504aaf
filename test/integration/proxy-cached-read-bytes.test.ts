// The cached poll read's exact answer on the wire: status line, every header in order, body. Captured
// from the build before cached answers were prebuilt, so an optimisation of the hot path cannot change a byte.
// Changed deliberately once since: an `Age` header (whole seconds, written here as `<seconds>` as it follows
// the clock), and `Age` in the exposed headers, so that a card times its next read from the proxy's copy.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeServer, listenOnLoopback, type LoopbackServer } from '../../src/node/loopback-server.ts';
import { cachedPollReadListener } from '../../src/proxy/cached-read-listener.ts';
import { noMetrics, type ProxyMetrics } from '../../src/proxy/operations/metrics.ts';
import { etagOf } from '../../src/proxy/response-cache.ts';
import { pageOrigin, startHarness, type Harness } from './proxy-harness.ts';

interface RawAnswer {
  readonly status: number;
  /** Name/value pairs as sent, in order, without `Date` (the clock), and `Age`'s whole seconds as `<seconds>`. */
  readonly headers: string[];
  readonly body: string;
}

function rawGet(
  url: string,
  headers: Record<string, string>,
  options: { method?: string; body?: string } = {},
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { headers, agent: false, method: options.method ?? 'GET' }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () => {
        const pairs: string[] = [];
        for (let index = 0; index < incoming.rawHeaders.length; index += 2) {
          const name = incoming.rawHeaders[index] ?? '';
          const value = incoming.rawHeaders[index + 1] ?? '';
          if (name.toLowerCase() === 'age')
            pairs.push(`${name}: ${/^\d+$/.test(value) ? '<seconds>' : value}`);
          else if (name.toLowerCase() !== 'date') pairs.push(`${name}: ${value}`);
        }
        resolve({ status: incoming.statusCode ?? 0, headers: pairs, body: Buffer.concat(chunks).toString() });
      });
    });
    outgoing.on('error', reject);
    outgoing.end(options.body);
  });
}

describe('a cached poll read, byte for byte', () => {
  let harness: Harness;
  let pollId: string;
  let reference: string;
  beforeAll(async () => {
    harness = await startHarness();
    const list = (await (await harness.call('/api/polls?limit=1')).json()) as { data: { id: string }[] };
    pollId = list.data[0]?.id ?? '';
    // The reference body, built the way the proxy always has: the platform's poll, serialised once.
    reference = JSON.stringify({
      data: await harness.proxy.proxy.runtime.platform.publicClient.getPoll(pollId),
    });
  });
  afterAll(() => harness.close());

  // As the Node adapter writes a Response's headers: lower-case names in sorted order, then its own two.
  const expectedHeaders = (etag: string, requestId: string, length: number | undefined) => [
    `access-control-allow-origin: ${pageOrigin}`,
    'access-control-expose-headers: Age, ETag, Retry-After',
    'age: <seconds>',
    'cache-control: public, max-age=0, must-revalidate, s-maxage=5',
    'cdn-cache-control: public, max-age=5, stale-while-revalidate=30, stale-if-error=600',
    ...(length === undefined ? [] : ['content-type: application/json; charset=utf-8']),
    `etag: ${etag}`,
    'vary: Origin',
    'x-content-type-options: nosniff',
    `x-request-id: ${requestId}`,
    ...(length === undefined ? [] : [`Content-Length: ${String(length)}`]),
    'Connection: close',
  ];

  it('answers a hit (and the miss before it) with the same status, headers and body as ever', async () => {
    const url = `${harness.proxy.url}/api/polls/${pollId}`;
    const etag = await etagOf(reference);
    for (const requestId of ['golden-1', 'golden-2', 'golden-3']) {
      const answer = await rawGet(url, { Origin: pageOrigin, 'X-Request-Id': requestId });
      expect(answer).toEqual({
        status: 200,
        headers: expectedHeaders(etag, requestId, Buffer.byteLength(reference)),
        body: reference,
      });
    }
  });

  it('answers If-None-Match with a 304 from the same entry, and a changed tag with the full answer', async () => {
    const url = `${harness.proxy.url}/api/polls/${pollId}`;
    const etag = await etagOf(reference);
    for (const match of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const answer = await rawGet(url, {
        Origin: pageOrigin,
        'X-Request-Id': 'golden-304',
        'If-None-Match': match,
      });
      expect(answer).toEqual({
        status: 304,
        headers: expectedHeaders(etag, 'golden-304', undefined),
        body: '',
      });
    }
    const changed = await rawGet(url, {
      Origin: pageOrigin,
      'X-Request-Id': 'golden-4',
      'If-None-Match': '"x"',
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toBe(reference);
  });

  it('leaves CORS headers out for an origin not on the list, keeping the rest', async () => {
    const url = `${harness.proxy.url}/api/polls/${pollId}`;
    const etag = await etagOf(reference);
    const answer = await rawGet(url, { Origin: 'https://elsewhere.example', 'X-Request-Id': 'golden-5' });
    expect(answer.headers).toEqual(
      expectedHeaders(etag, 'golden-5', Buffer.byteLength(reference)).filter(
        (header) => !header.startsWith('access-control-'),
      ),
    );
    expect(answer.body).toBe(reference);
  });

  it('keeps CORS, the request id and nosniff on the error answers of the poll routes', async () => {
    for (const [path, status] of [
      ['/api/polls/not-a-uuid', 400],
      ['/api/polls/a/b', 404],
    ] as const) {
      const answer = await rawGet(`${harness.proxy.url}${path}`, {
        Origin: pageOrigin,
        'X-Request-Id': 'golden-err',
      });
      expect(answer.status).toBe(status);
      expect(answer.headers).toEqual(
        expect.arrayContaining([
          `access-control-allow-origin: ${pageOrigin}`,
          'access-control-expose-headers: Age, ETag, Retry-After',
          'cache-control: no-store',
          'vary: Origin',
          'x-content-type-options: nosniff',
          'x-request-id: golden-err',
        ]),
      );
    }
  });
});

describe('the cached poll read on Node, answered before the app', () => {
  let harness: Harness;
  let pollId: string;
  /** The harness's app alone, with no listener before it: what Hono answers. */
  let appOnly: LoopbackServer;
  /** The same app and cache, with the cached read's listener first; `toApp` counts what reached the app. */
  let withFirst: LoopbackServer;
  let toApp: string[];
  const recorded: string[] = [];
  /** Added to the proxy's clock: ages its cache. */
  let skewMs = 0;
  const countingMetrics: ProxyMetrics = {
    ...noMetrics,
    request: (route, method, status) => recorded.push(`${method} ${route} ${String(status)}`),
  };
  beforeAll(async () => {
    harness = await startHarness({}, { now: () => Date.now() + skewMs });
    const list = (await (await harness.call('/api/polls?limit=1')).json()) as { data: { id: string }[] };
    pollId = list.data[0]?.id ?? '';
    const { app, runtime } = harness.proxy.proxy;
    toApp = [];
    appOnly = await listenOnLoopback(app.fetch, 0);
    withFirst = await listenOnLoopback(
      (request, env) => {
        toApp.push(`${request.method} ${new URL(request.url).pathname}${new URL(request.url).search}`);
        return app.fetch(request, env);
      },
      0,
      undefined,
      cachedPollReadListener(runtime, countingMetrics),
    );
  });
  afterAll(async () => {
    await closeServer(appOnly.server);
    await closeServer(withFirst.server);
    await harness.close();
  });

  it('answers a fresh hit itself, byte for byte what the app answers, and records it the same way', async () => {
    const path = `/api/polls/${pollId}`;
    await rawGet(`${appOnly.url}${path}`, { Origin: pageOrigin });
    const etag = await etagOf(
      JSON.stringify({ data: await harness.proxy.proxy.runtime.platform.publicClient.getPoll(pollId) }),
    );
    const cases: Record<string, string>[] = [
      { Origin: pageOrigin, 'X-Request-Id': 'same-1' },
      { Origin: 'https://elsewhere.example', 'X-Request-Id': 'same-2' },
      { 'X-Request-Id': 'same-3' },
      { Origin: pageOrigin, 'X-Request-Id': 'same-4', 'If-None-Match': etag },
      { Origin: pageOrigin, 'X-Request-Id': 'same-5', 'If-None-Match': '"other"' },
    ];
    /** The access log's line for a request id, without its clock and latency. */
    const logged = (requestId: string) => {
      const line = harness.logLines.find((each) => each.includes(`"requestId":"${requestId}"`)) ?? '{}';
      const { time: _time, ms: _ms, ...fields } = JSON.parse(line) as Record<string, unknown>;
      return fields;
    };
    for (const headers of cases) {
      const fromApp = await rawGet(`${appOnly.url}${path}`, headers);
      const appLine = logged(headers['X-Request-Id'] ?? '');
      harness.logLines.length = 0;
      const fromFirst = await rawGet(`${withFirst.url}${path}`, headers);
      expect(fromFirst).toEqual(fromApp);
      expect([200, 304]).toContain(fromFirst.status);
      expect(logged(headers['X-Request-Id'] ?? '')).toEqual(appLine);
      expect(appLine).toMatchObject({ event: 'request', route: '/api/polls/:pollId', method: 'GET' });
    }
    // Its uppercase spelling is the same poll, and the same entry.
    expect(
      (await rawGet(`${withFirst.url}${path.toUpperCase().replace('/API/POLLS/', '/api/polls/')}`, {})).body,
    ).toBe((await rawGet(`${appOnly.url}${path}`, {})).body);
    expect(toApp).toEqual([]);
    expect(recorded).toEqual([
      ...cases.map(
        (headers) => `GET /api/polls/:pollId ${headers['If-None-Match'] === etag ? '304' : '200'}`,
      ),
      'GET /api/polls/:pollId 200',
    ]);
    // A fresh id when the caller sends none, as the app gives: a UUID.
    const fresh = await rawGet(`${withFirst.url}${path}`, { 'X-Request-Id': 'not a valid id' });
    expect(fresh.headers.find((header) => header.startsWith('x-request-id: '))).toMatch(
      /^x-request-id: [0-9a-f-]{36}$/,
    );
  });

  it('leaves everything else to the app: another method, a query, a body, an odd path, the drawn card, a stale entry', async () => {
    const path = `/api/polls/${pollId}`;
    await rawGet(`${withFirst.url}${path}`, {});
    toApp.length = 0;
    await rawGet(`${withFirst.url}${path}?x=1`, {});
    await rawGet(`${withFirst.url}${path}`, {}, { method: 'HEAD' });
    await rawGet(`${withFirst.url}${path}`, { 'Content-Length': '1' }, { body: 'x' });
    await rawGet(`${withFirst.url}${path}/`, {});
    await rawGet(`${withFirst.url}${path}/card`, {});
    await rawGet(`${withFirst.url}/api/polls/not-a-uuid`, {});
    await rawGet(`${withFirst.url}/api/polls/${encodeURIComponent(pollId).replace('-', '%2D')}`, {});
    await rawGet(`${withFirst.url}/api/polls/00000000-0000-4000-8000-000000000000`, {});
    expect(toApp).toEqual([
      `GET ${path}?x=1`,
      `HEAD ${path}`,
      `GET ${path}`,
      `GET ${path}/`,
      `GET ${path}/card`,
      'GET /api/polls/not-a-uuid',
      `GET /api/polls/${pollId.replace('-', '%2D')}`,
      'GET /api/polls/00000000-0000-4000-8000-000000000000',
    ]);
    // Once the entry is no longer fresh, the app answers the first read (stale, and starts its refresh); while the
    // refresh runs, the listener answers the same stale entry; then the refreshed one.
    toApp.length = 0;
    skewMs += 6000;
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    harness.beforeUpstream = () => held;
    const stale = await rawGet(`${withFirst.url}${path}`, {});
    expect(stale.status).toBe(200);
    expect(toApp).toEqual([`GET ${path}`]);
    expect(harness.proxy.proxy.runtime.pollCache.loadsInFlight).toBe(1);
    const whileRefreshing = await rawGet(`${withFirst.url}${path}`, {});
    expect(whileRefreshing.body).toBe(stale.body);
    expect(toApp).toEqual([`GET ${path}`]);
    harness.beforeUpstream = undefined;
    release();
    await expect.poll(() => harness.proxy.proxy.runtime.pollCache.loadsInFlight).toBe(0);
    expect((await rawGet(`${withFirst.url}${path}`, {})).status).toBe(200);
    expect(toApp).toEqual([`GET ${path}`]);
  });
});
