import { describe, expect, it } from 'vitest';
import type { FetchLike } from '../platform/http.ts';
import { parsePollList } from '../platform/parse.ts';
import { fetchPollsFromProxy } from './proxy-source.ts';
import { pollFixture } from './poll-fixture.ts';
import { hangingFetch } from '../../test/support/hanging-fetch.ts';

const idA = '11111111-1111-4111-8111-111111111111';
const idB = '22222222-2222-4222-8222-222222222222';

function fakeFetch(answer: (url: URL) => Response) {
  const calls: { url: URL; init: RequestInit | undefined }[] = [];
  const fetch: FetchLike = (input, init) => {
    const url = new URL(input instanceof Request ? input.url : input.toString());
    calls.push({ url, init });
    return Promise.resolve(answer(url));
  };
  return { fetch, calls };
}

function json(body: unknown, init: { status?: number; headers?: Record<string, string> } = {}): Response {
  const headers = new Headers(init.headers);
  headers.set('Content-Type', 'application/json');
  return new Response(JSON.stringify(body), { status: init.status ?? 200, headers });
}

describe('fetchPollsFromProxy', () => {
  it('GETs the proxy poll route with ids[] (literal brackets), a limit covering them all, and no cookies', async () => {
    const { fetch, calls } = fakeFetch(() =>
      json({ data: [pollFixture({ id: idA }), pollFixture({ id: idB })] }),
    );
    const polls = await fetchPollsFromProxy(
      'https://proxy.example/',
      parsePollList,
      fetch,
    )([idB, idA.toUpperCase(), idA]);
    expect(polls.map((poll) => poll.id)).toEqual([idA, idB]);
    expect(calls).toHaveLength(1);
    const call = calls[0]!;
    expect(`${call.url.origin}${call.url.pathname}`).toBe('https://proxy.example/api/polls');
    expect(call.url.search).toBe(`?ids[]=${idA}&ids[]=${idB}&limit=2`);
    expect(call.init?.credentials).toBe('omit');
    expect(call.init?.signal).toBeInstanceOf(AbortSignal);
  });

  it('leaves out ids that are not uuids, and sends nothing when none is left', async () => {
    const { fetch, calls } = fakeFetch(() => json({ data: [] }));
    const read = fetchPollsFromProxy('https://proxy.example', parsePollList, fetch);
    await read(['not-a-uuid', idA]);
    expect(calls[0]?.url.searchParams.getAll('ids[]')).toEqual([idA]);
    expect(await read(['x', '../admin'])).toEqual([]);
    expect(calls).toHaveLength(1);
  });

  it('accepts data as a single object, as the platform documents', async () => {
    const { fetch } = fakeFetch(() => json({ data: pollFixture({ id: idA }) }));
    expect(
      (await fetchPollsFromProxy('https://proxy.example', parsePollList, fetch)([idA])).map(
        (poll) => poll.id,
      ),
    ).toEqual([idA]);
  });

  it('turns a body that is not a poll list into malformed_response', async () => {
    const { fetch } = fakeFetch(() => json({ data: [{ nope: true }] }));
    await expect(
      fetchPollsFromProxy('https://proxy.example', parsePollList, fetch)([idA]),
    ).rejects.toMatchObject({
      code: 'malformed_response',
    });
  });

  it('reads a throttled answer with its Retry-After instant', async () => {
    const { fetch } = fakeFetch(() =>
      json(
        { error: { code: 'upstream_throttled', message: 'busy', retryAfterSeconds: 60 } },
        { status: 503, headers: { 'Retry-After': '60' } },
      ),
    );
    const error = await fetchPollsFromProxy('https://proxy.example', parsePollList, fetch, {
      now: () => 1_000_000,
    })([idA]).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'throttled', status: 503, retryAt: new Date(1_060_000) });
  });

  it('falls back to retryAfterSeconds of the body when the header is missing', async () => {
    const { fetch } = fakeFetch(() =>
      json({ error: { code: 'rate_limited', message: 'x', retryAfterSeconds: 5 } }, { status: 429 }),
    );
    await expect(
      fetchPollsFromProxy('https://proxy.example', parsePollList, fetch, { now: () => 0 })([idA]),
    ).rejects.toMatchObject({
      code: 'throttled',
      retryAt: new Date(5000),
    });
  });

  it('maps other failures to coded errors', async () => {
    const cases: [Response, string][] = [
      [json({ error: { code: 'upstream_unavailable', message: 'x' } }, { status: 502 }), 'platform_error'],
      [json({ error: { code: 'invalid_filter', message: 'x' } }, { status: 400 }), 'bad_request'],
      [new Response('gone', { status: 404 }), 'not_found'],
    ];
    for (const [response, code] of cases) {
      const { fetch } = fakeFetch(() => response);
      await expect(
        fetchPollsFromProxy('https://proxy.example', parsePollList, fetch)([idA]),
      ).rejects.toMatchObject({
        code,
      });
    }
  });

  it('turns a failed fetch into network and an aborted one into timeout', async () => {
    const refused: FetchLike = () => Promise.reject(new TypeError('fetch failed'));
    await expect(
      fetchPollsFromProxy('https://proxy.example', parsePollList, refused)([idA]),
    ).rejects.toMatchObject({
      code: 'network',
    });
    await expect(
      fetchPollsFromProxy('https://proxy.example', parsePollList, hangingFetch, { timeoutMs: 5 })([idA]),
    ).rejects.toMatchObject({
      code: 'timeout',
    });
  });
});
