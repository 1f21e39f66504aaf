import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deadline } from '../platform/deadline.ts';
import { errorFromFetchFailure, neverReachedPlatform } from '../platform/errors.ts';
import type { FetchLike } from '../platform/http.ts';
import { freePort } from '../../test/support/free-port.ts';
import { undiciFetch } from './undici-fetch.ts';

/** What the server saw of the last request. */
interface Seen {
  method: string;
  headers: IncomingMessage['headers'];
  body: string;
}

describe('undiciFetch, the platform calls’ fetch on Node, against the global fetch', () => {
  const seen: Seen[] = [];
  let url = '';
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      seen.push({
        method: request.method ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString(),
      });
      const path = request.url ?? '';
      if (path === '/never') return;
      if (path === '/redirect') {
        response.writeHead(302, { Location: '/elsewhere' }).end();
        return;
      }
      if (path === '/empty') {
        response.writeHead(204).end();
        return;
      }
      response.setHeader('Set-Cookie', ['a=1', 'b=2']);
      response.writeHead(path === '/refused' ? 401 : 200, {
        'Content-Type': 'application/json',
        'Retry-After': '7',
      });
      response.end(JSON.stringify({ data: { path, é: 'ü' } }));
    });
  });
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const fetches: [string, FetchLike][] = [
    ['global fetch', (input, init) => globalThis.fetch(input, init)],
    ['undiciFetch', undiciFetch()],
  ];

  /** What a caller can tell of an answer. */
  const seenAnswer = async (response: Response) => ({
    status: response.status,
    type: response.headers.get('content-type'),
    retryAfter: response.headers.get('retry-after'),
    cookies: response.headers.getSetCookie(),
    location: response.headers.get('location'),
    body: await response.text(),
  });

  it('sends the method, headers and body, and answers status, headers and body as fetch does', async () => {
    const answers = [];
    for (const [, fetch] of fetches) {
      seen.length = 0;
      const json = await fetch(`${url}/vote?x=1`, {
        method: 'POST',
        headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
        body: '{"answerId":"a"}',
        redirect: 'manual',
      });
      const form = await fetch(new URL(`${url}/refused`), {
        method: 'POST',
        headers: new Headers({ accept: 'application/json' }),
        body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: 'r t' }),
      });
      answers.push({
        json: await seenAnswer(json),
        form: await seenAnswer(form),
        redirect: await seenAnswer(await fetch(`${url}/redirect`, { redirect: 'manual' })),
        empty: await seenAnswer(await fetch(`${url}/empty`)),
        sent: seen.slice(0, 2).map((each) => ({
          method: each.method,
          authorization: each.headers.authorization,
          type: each.headers['content-type'],
          body: each.body,
        })),
      });
    }
    const [global, undici] = answers;
    expect(undici).toEqual(global);
    expect(undici?.form.status).toBe(401);
    expect(undici?.redirect.status).toBe(302);
    expect(undici?.sent[1]).toEqual({
      method: 'POST',
      authorization: undefined,
      type: 'application/x-www-form-urlencoded;charset=UTF-8',
      body: 'grant_type=refresh_token&refresh_token=r+t',
    });
  });

  it('rejects with the signal’s reason when the deadline passes, as fetch does', async () => {
    for (const [, fetch] of fetches) {
      const limit = deadline(150);
      const started = performance.now();
      const failure = await fetch(`${url}/never`, { signal: limit.signal }).catch((error: unknown) => error);
      limit.clear();
      expect(performance.now() - started).toBeLessThan(2000);
      expect(errorFromFetchFailure(failure, 'read').code).toBe('timeout');
    }
  });

  it('fails a refused connection as a network error that never reached the platform, as fetch does', async () => {
    const closed = `http://127.0.0.1:${String(await freePort())}/`;
    for (const [, fetch] of fetches) {
      const failure = await fetch(closed).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(TypeError);
      const mapped = errorFromFetchFailure(failure, 'read');
      expect(mapped.code).toBe('network');
      expect(neverReachedPlatform(mapped)).toBe(true);
    }
  });
});
