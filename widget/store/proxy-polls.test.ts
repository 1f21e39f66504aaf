import { describe, expect, it } from 'vitest';
import { PlatformError } from '../../src/platform/errors.ts';
import { pollFixture } from '../../src/polls/poll-fixture.ts';
import { proxyPolls } from './proxy-polls.ts';

const idA = '0b7c1d2e-3f40-4a5b-8c6d-7e8f90a1b2c3';
const idB = '1c8d2e3f-4051-4b6c-9d7e-8f90a1b2c3d4';

function answering(status: number, body: unknown, headers: Record<string, string> = {}) {
  const urls: string[] = [];
  const fetchImpl: typeof fetch = (input, init) => {
    urls.push(input instanceof Request ? input.url : input.toString());
    expect(init?.credentials).toBe('omit');
    return Promise.resolve(Response.json(body, { status, headers }));
  };
  return { urls, fetchImpl };
}

describe('proxyPolls', () => {
  it('asks once for the valid ids (lower-cased, each once) with a limit that fits them all', async () => {
    const { urls, fetchImpl } = answering(200, { data: [pollFixture({ id: idA })] });
    const polls = await proxyPolls(
      'https://proxy.example/',
      fetchImpl,
    )([idA.toUpperCase(), idA, 'not-a-uuid', idB]);
    expect(polls.map((poll) => poll.id)).toEqual([idA]);
    const url = new URL(urls[0]!);
    expect(url.origin + url.pathname).toBe('https://proxy.example/api/polls');
    expect(url.searchParams.getAll('ids[]')).toEqual([idA, idB]);
    expect(url.searchParams.get('limit')).toBe('2');
  });

  it('sends nothing when no id is valid', async () => {
    const { urls, fetchImpl } = answering(200, { data: [] });
    expect(await proxyPolls('https://proxy.example', fetchImpl)(['nope'])).toEqual([]);
    expect(urls).toEqual([]);
  });

  it('drops what is not a poll a card can read', async () => {
    const { fetchImpl } = answering(200, { data: [pollFixture({ id: idA }), { id: idB }, 'x', null] });
    expect((await proxyPolls('https://proxy.example', fetchImpl)([idA, idB])).map((poll) => poll.id)).toEqual(
      [idA],
    );
  });

  it('turns a 429 with Retry-After into a throttled error the store waits out', async () => {
    const { fetchImpl } = answering(
      429,
      { error: { code: 'rate_limited', message: 'slow down' } },
      { 'Retry-After': '30' },
    );
    const error = await proxyPolls(
      'https://proxy.example',
      fetchImpl,
    )([idA]).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PlatformError);
    expect((error as PlatformError).code).toBe('throttled');
    expect((error as PlatformError).retryAt!.getTime()).toBeGreaterThan(Date.now() + 25_000);
  });

  it('reports an unreachable proxy as a network error', async () => {
    const fetchImpl = (() => Promise.reject(new TypeError('failed'))) as typeof fetch;
    const error = await proxyPolls(
      'https://proxy.example',
      fetchImpl,
    )([idA]).catch((caught: unknown) => caught);
    expect((error as PlatformError).code).toBe('network');
  });
});
