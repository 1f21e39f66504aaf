import { describe, expect, it } from 'vitest';
import { PlatformClient, type PlatformClientOptions } from './client.ts';
import { PlatformError } from './errors.ts';
import { createFakeFetch, jsonResponse, type FakeFetch } from './testing/fake-fetch.ts';
import { samplePollJson } from './testing/sample-poll.ts';
import { platformErrorOf } from '../../test/support/platform-error.ts';
import { hangingFetch } from '../../test/support/hanging-fetch.ts';

const pollId = '0f8c6a2e-4b1d-4c3e-9f5a-6b7c8d9e0f11';
const answerId = '1a2b3c4d-0000-4000-8000-000000000001';
const now = Date.UTC(2026, 8, 1);

function clientWith(fake: FakeFetch, options: Partial<PlatformClientOptions> = {}): PlatformClient {
  return new PlatformClient({
    apiUrl: 'https://api.example/',
    fetch: fake.fetch,
    tokens: { application: () => Promise.resolve('app-token'), user: () => Promise.resolve('user-token') },
    now: () => now,
    ...options,
  });
}

describe('PlatformClient requests', () => {
  it('lists polls with the application token and the filters as the platform writes them', async () => {
    const fake = createFakeFetch(() => jsonResponse({ data: [samplePollJson()] }));
    const polls = await clientWith(fake).listPolls({
      ids: [pollId],
      openAt: { from: '2022-03-29T12:30:33' },
    });
    expect(polls).toHaveLength(1);
    const request = fake.requests[0]!;
    expect(request.method).toBe('GET');
    expect(request.url.href).toBe(
      `https://api.example/polls/1.0.8/polls?ids[]=${pollId}&openAt[from]=2022-03-29T12%3A30%3A33`,
    );
    expect(request.headers.get('authorization')).toBe('Bearer app-token');
  });

  it('reads one poll, the user routes with the user token, the user and surveys', async () => {
    const fake = createFakeFetch((request) => {
      if (request.url.pathname.endsWith('/user/me')) return jsonResponse({ data: { userId: 'u1' } });
      if (request.url.pathname.endsWith('/surveys')) return jsonResponse({ data: [] });
      if (request.url.pathname.includes('/poll/'))
        return jsonResponse({ data: samplePollJson({ userVote: true }) });
      return jsonResponse({ data: [] });
    });
    const client = clientWith(fake);
    expect((await client.getPoll(pollId)).id).toBe(pollId);
    expect((await client.getUserPoll(pollId)).userVote).toBe(true);
    expect(await client.listUserPolls({ userVoted: true })).toEqual([]);
    expect(await client.listUserPollHistory({ page: 2, limit: 5, direction: 'asc' })).toEqual([]);
    expect(await client.getCurrentUser()).toEqual({ userId: 'u1' });
    expect(await client.listSurveys()).toEqual([]);
    expect(
      fake.requests.map(
        (request) => `${request.headers.get('authorization')} ${request.url.pathname}${request.url.search}`,
      ),
    ).toEqual([
      `Bearer app-token /polls/1.0.8/poll/${pollId}`,
      `Bearer user-token /polls/1.0.8/user/poll/${pollId}`,
      'Bearer user-token /polls/1.0.8/user/polls?userVoted=true',
      'Bearer user-token /polls/1.0.8/user/polls/history?direction=asc&limit=5&page=2',
      'Bearer user-token /user/1.0.0/user/me',
      'Bearer app-token /survey/1.0.0/survey/surveys',
    ]);
  });

  it('votes with a JSON body and takes a 201 with no body', async () => {
    const fake = createFakeFetch(() => new Response(null, { status: 201 }));
    await clientWith(fake).vote(pollId, answerId);
    const request = fake.requests[0]!;
    expect(request.method).toBe('POST');
    expect(request.url.pathname).toBe(`/polls/1.0.8/user/poll/${pollId}/vote`);
    expect(request.headers.get('content-type')).toBe('application/json');
    expect(JSON.parse(request.body)).toEqual({ answerId });
  });

  it('checks inputs before anything leaves', async () => {
    const fake = createFakeFetch(() => jsonResponse({ data: [] }));
    const client = clientWith(fake);
    for (const attempt of [
      client.getPoll('../polls'),
      client.vote(pollId, 'not-a-uuid'),
      client.listPolls({ limit: 0 }),
      client.listPolls({ closeAt: { to: '31/12/2022' } }),
      client.listUserPollHistory({ ids: [pollId] } as never),
    ]) {
      expect((await platformErrorOf(attempt)).code).toBe('invalid_input');
    }
    expect(fake.requests).toHaveLength(0);
  });

  it('refuses plain http without the setting and a route without a token provider', async () => {
    const fake = createFakeFetch(() => jsonResponse({ data: [] }));
    expect(() => clientWith(fake, { apiUrl: 'http://127.0.0.1:1' })).toThrow(PlatformError);
    const noUser = clientWith(fake, { tokens: { application: () => Promise.resolve('a') } });
    expect((await platformErrorOf(noUser.getCurrentUser())).code).toBe('missing_credentials');
  });

  it('uses other configured versions', async () => {
    const fake = createFakeFetch(() => jsonResponse({ data: [] }));
    await clientWith(fake, { versions: { polls: '1.0.9', user: '1.0.0', survey: '2.0.0' } }).listPolls();
    expect(fake.requests[0]!.url.pathname).toBe('/polls/1.0.9/polls');
  });
});

describe('PlatformClient errors', () => {
  const gateway = (status: number, code: string, extra: Record<string, unknown> = {}, headers = {}) =>
    jsonResponse({ code, message: 'm', description: 'd', ...extra }, status, headers);

  it.each([
    ['900901', () => gateway(401, '900901'), 'invalid_token'],
    ['900903', () => gateway(401, '900903'), 'invalid_token'],
    ['900902', () => gateway(401, '900902'), 'missing_credentials'],
    ['900905', () => gateway(401, '900905'), 'wrong_token_kind'],
    ['900908', () => gateway(403, '900908'), 'forbidden'],
    ['a gateway 404', () => gateway(404, '404', { type: 'Status report' }), 'removed_operation'],
    ['a 405', () => gateway(405, '405', { type: 'Status report' }), 'removed_operation'],
    ['a backend 404', () => jsonResponse({ message: 'Entity not found' }, 404), 'not_found'],
    ['a 400', () => jsonResponse({ message: 'bad limit' }, 400), 'bad_request'],
    ['a 500', () => new Response('boom', { status: 500 }), 'platform_error'],
    ['a 200 that is not JSON', () => new Response('<html>', { status: 200 }), 'malformed_response'],
    ['a 200 that is not a poll', () => jsonResponse({ data: { id: 1 } }), 'malformed_response'],
  ])('maps %s', async (_name, answer, code) => {
    const fake = createFakeFetch(() => answer());
    expect((await platformErrorOf(clientWith(fake).getPoll(pollId))).code).toBe(code);
  });

  it('keeps the platform code and status', async () => {
    const fake = createFakeFetch(() => gateway(401, '900901'));
    expect(await platformErrorOf(clientWith(fake).listPolls())).toMatchObject({
      status: 401,
      platformCode: '900901',
    });
  });

  it('reads the throttling instant from Retry-After, or from nextAccessTime', async () => {
    const fake = createFakeFetch();
    fake.answer(
      gateway(429, '900804', {}, { 'retry-after': 'Wed, 02 Sep 2026 00:00:00 GMT' }),
      gateway(429, '900804', { nextAccessTime: '2026-Sep-02 00:00:00+0000 UTC' }),
      gateway(503, '900801', {}, { 'retry-after': '60' }),
    );
    const client = clientWith(fake);
    expect((await platformErrorOf(client.listPolls())).retryAt?.toISOString()).toBe(
      '2026-09-02T00:00:00.000Z',
    );
    expect((await platformErrorOf(client.listPolls())).retryAt?.toISOString()).toBe(
      '2026-09-02T00:00:00.000Z',
    );
    const hardLimit = await platformErrorOf(client.listPolls());
    expect(hardLimit.code).toBe('throttled');
    expect(hardLimit.retryAt?.getTime()).toBe(now + 60_000);
  });

  it('maps a vote’s refusals to vote_refused, but keeps token and throttling errors', async () => {
    const fake = createFakeFetch();
    fake.answer(
      jsonResponse({ message: 'already voted' }, 409),
      jsonResponse({ message: 'not a holder' }, 403),
      gateway(401, '900901'),
      gateway(429, '900804'),
    );
    const client = clientWith(fake);
    const codes = [];
    for (let i = 0; i < 4; i += 1) codes.push((await platformErrorOf(client.vote(pollId, answerId))).code);
    expect(codes).toEqual(['vote_refused', 'vote_refused', 'invalid_token', 'throttled']);
  });

  it('maps a failed connection to network and an abort to timeout', async () => {
    const down = createFakeFetch(new TypeError('fetch failed'));
    expect((await platformErrorOf(clientWith(down).listPolls())).code).toBe('network');
    const slow = new PlatformClient({
      apiUrl: 'https://api.example',
      fetch: hangingFetch,
      timeoutMs: 10,
      tokens: { application: () => Promise.resolve('a') },
    });
    expect((await platformErrorOf(slow.listPolls())).code).toBe('timeout');
  });

  it('never puts the token in a message', async () => {
    const fake = createFakeFetch(() => gateway(401, '900901'));
    const error = await platformErrorOf(clientWith(fake).listPolls());
    expect(JSON.stringify({ message: error.message, stack: error.stack })).not.toContain('app-token');
  });
});

describe('PlatformClient with a refreshing token source', () => {
  function source(tokens: string[]) {
    let current = tokens.shift()!;
    const invalidated: string[] = [];
    return {
      invalidated,
      provider: {
        token: () => Promise.resolve(current),
        invalidate: (refused: string) => {
          invalidated.push(refused);
          const next = tokens.shift();
          if (next !== undefined) current = next;
          return Promise.resolve(next !== undefined);
        },
      },
    };
  }

  it('retries once with a fresh token after invalid_token', async () => {
    const fake = createFakeFetch((request) =>
      request.headers.get('authorization') === 'Bearer fresh'
        ? jsonResponse({ data: [] })
        : jsonResponse({ code: '900901' }, 401),
    );
    const { provider, invalidated } = source(['stale', 'fresh', 'fresher']);
    const client = clientWith(fake, { tokens: { application: provider } });
    expect(await client.listPolls()).toEqual([]);
    expect(invalidated).toEqual(['stale']);
    expect(fake.requests).toHaveLength(2);
  });

  it('retries only once', async () => {
    const fake = createFakeFetch(() => jsonResponse({ code: '900901' }, 401));
    const { provider } = source(['a', 'b', 'c']);
    const client = clientWith(fake, { tokens: { application: provider } });
    expect((await platformErrorOf(client.listPolls())).code).toBe('invalid_token');
    expect(fake.requests).toHaveLength(2);
  });

  it('never retries a vote, but drops the refused token', async () => {
    const fake = createFakeFetch(() => jsonResponse({ code: '900901' }, 401));
    const { provider, invalidated } = source(['a', 'b']);
    const client = clientWith(fake, { tokens: { user: provider } });
    expect((await platformErrorOf(client.vote(pollId, answerId))).code).toBe('invalid_token');
    expect(fake.requests).toHaveLength(1);
    expect(invalidated).toEqual(['a']);
  });
});
