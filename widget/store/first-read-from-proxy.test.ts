import { describe, expect, it } from 'vitest';
import { pollFixture } from '../../src/polls/poll-fixture.ts';
import { firstReadFromProxy } from './first-read-from-proxy.ts';

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

describe('firstReadFromProxy', () => {
  it('asks once for the valid ids (lower-cased, each once, sorted) with a limit that fits them all', async () => {
    const { urls, fetchImpl } = answering(200, { data: [pollFixture({ id: idA })] });
    const polls = await firstReadFromProxy(
      'https://proxy.example/',
      fetchImpl,
    )([idB, idA.toUpperCase(), idA, 'x']);
    expect(polls.map((poll) => poll.id)).toEqual([idA]);
    const url = new URL(urls[0]!);
    expect(url.origin + url.pathname).toBe('https://proxy.example/api/polls');
    expect(url.searchParams.getAll('ids[]')).toEqual([idA, idB]);
    expect(url.searchParams.get('limit')).toBe('2');
  });

  it('sends nothing when no id is valid', async () => {
    const { urls, fetchImpl } = answering(200, { data: [] });
    expect(await firstReadFromProxy('https://proxy.example', fetchImpl)(['nope'])).toEqual([]);
    expect(urls).toEqual([]);
  });

  it('drops what is not a poll a card can read', async () => {
    const { fetchImpl } = answering(200, { data: [pollFixture({ id: idA }), { id: idB }, 'x', null] });
    const polls = await firstReadFromProxy('https://proxy.example', fetchImpl)([idA, idB]);
    expect(polls.map((poll) => poll.id)).toEqual([idA]);
  });

  it('leaves a refused answer unread for the live store', async () => {
    const { fetchImpl } = answering(429, { error: { code: 'rate_limited' } }, { 'Retry-After': '30' });
    const failure: unknown = await firstReadFromProxy(
      'https://proxy.example',
      fetchImpl,
    )([idA]).catch((caught: unknown) => caught);
    expect(failure).toBeInstanceOf(Response);
    expect((failure as Response).status).toBe(429);
    expect((failure as Response).bodyUsed).toBe(false);
  });
});
