// The cached poll read's exact answer on the wire (issue 26): status line, every header in order, body. Captured
// from the build before cached answers were prebuilt, so an optimisation of the hot path cannot change a byte.
// Changed deliberately once since (issue 24): an `Age` header (whole seconds, written here as `<seconds>` as it follows
// the clock), and `Age` in the exposed headers, so that a card times its next read from the proxy's copy.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { etagOf } from '../../src/proxy/response-cache.ts';
import { pageOrigin, startHarness, type Harness } from './proxy-harness.ts';

interface RawAnswer {
  readonly status: number;
  /** Name/value pairs as sent, in order, without `Date` (the clock), and `Age`'s whole seconds as `<seconds>`. */
  readonly headers: string[];
  readonly body: string;
}

function rawGet(url: string, headers: Record<string, string>): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { headers, agent: false }, (incoming) => {
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
    outgoing.end();
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
