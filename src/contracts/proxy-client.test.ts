import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  proxyClient,
  ProxyClientError,
  proxyUnexpectedAnswer,
  proxyUnreachable,
  type ProxyFetch,
} from './proxy-client.ts';
import { csrfHeaderName, proxyRoutes } from './proxy-contract.ts';

const json = (body: unknown, init: { status?: number; headers?: Record<string, string> } = {}): Response =>
  new Response(JSON.stringify(body), {
    status: init.status ?? 200,
    headers: { 'Content-Type': 'application/json', ...init.headers },
  });

function answering(answer: () => Response | Promise<Response>) {
  const calls: { url: string; init: RequestInit }[] = [];
  const fetch: ProxyFetch = (url, init) => {
    calls.push({ url, init });
    return Promise.resolve(answer());
  };
  return { fetch, calls };
}

const failureOf = (promise: Promise<unknown>): Promise<ProxyClientError> =>
  promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (error: unknown) => {
      expect(error).toBeInstanceOf(ProxyClientError);
      return error as ProxyClientError;
    },
  );

afterEach(() => {
  vi.useRealTimers();
});

describe('the proxy client', () => {
  it('calls the proxy’s route under its URL, with the session cookie, the CSRF header and a JSON body', async () => {
    const { fetch, calls } = answering(() => json({ signedIn: true, userId: 'u1' }));
    const body = await proxyClient('https://polls.club.example/', fetch).call(proxyRoutes.sessionHandoff, {
      method: 'POST',
      body: { handoff: 'h' },
    });
    expect(body).toEqual({ signedIn: true, userId: 'u1' });
    const [call] = calls;
    expect(call?.url).toBe('https://polls.club.example/auth/handoff');
    expect(call?.init).toMatchObject({ method: 'POST', credentials: 'include', body: '{"handoff":"h"}' });
    expect(call?.init.headers).toMatchObject({ [csrfHeaderName]: '1', 'Content-Type': 'application/json' });
    expect(call?.init.signal).toBeInstanceOf(AbortSignal);
  });

  it('sends public reads without cookies or the CSRF header (no preflight, one CDN entry)', async () => {
    const { fetch, calls } = answering(() => new Response(null, { status: 204 }));
    expect(
      await proxyClient('https://p.example', fetch).call('/api/polls?limit=1', { credentials: 'omit' }),
    ).toBe(undefined);
    expect(calls[0]?.init.credentials).toBe('omit');
    expect(calls[0]?.init.headers).not.toHaveProperty(csrfHeaderName);
  });

  it('turns the proxy’s error body into its code, status, reason and retry delay', async () => {
    const { fetch } = answering(() =>
      json({ error: { code: 'vote_refused', message: 'No', reason: 'not_holder' } }, { status: 409 }),
    );
    const error = await failureOf(proxyClient('https://p.example', fetch).call(proxyRoutes.vote('p1')));
    expect(error).toMatchObject({ code: 'vote_refused', status: 409, reason: 'not_holder' });
    const throttled = answering(() =>
      json({ error: { code: 'rate_limited', message: 'x', retryAfterSeconds: 9 } }, { status: 429 }),
    );
    expect(
      await failureOf(proxyClient('https://p.example', throttled.fetch).call('/api/polls')),
    ).toMatchObject({ code: 'rate_limited', retryAfterSeconds: 9 });
  });

  it.each([
    ['a body-less 500', () => new Response(null, { status: 500 })],
    ['a non-JSON 502', () => new Response('<html>Bad gateway</html>', { status: 502 })],
    [
      'JSON that is not the error body',
      () => json({ oops: true }, { status: 503, headers: { 'Retry-After': '7' } }),
    ],
  ])('codes %s as proxy_unexpected_answer, never a plain Error', async (_, answer) => {
    const error = await failureOf(
      proxyClient('https://p.example', answering(answer).fetch).call('/auth/session'),
    );
    expect(error.code).toBe(proxyUnexpectedAnswer);
    expect(error.status).toBeGreaterThanOrEqual(500);
  });

  it('codes a network failure and its own timeout as proxy_unreachable, with the cause', async () => {
    const refused: ProxyFetch = () => Promise.reject(new TypeError('Failed to fetch'));
    const error = await failureOf(proxyClient('https://p.example', refused).call('/auth/session'));
    expect(error).toMatchObject({ code: proxyUnreachable, status: undefined });
    expect(error.cause).toBeInstanceOf(TypeError);

    const hanging: ProxyFetch = (_, init) =>
      new Promise((_resolve, reject) => {
        init.signal?.addEventListener('abort', () => {
          reject(init.signal?.reason as Error);
        });
      });
    const timedOut = await failureOf(proxyClient('https://p.example', hanging, 5).call('/auth/session'));
    expect(timedOut.code).toBe(proxyUnreachable);
    expect((timedOut.cause as DOMException).name).toBe('TimeoutError');
  });
});
