import { expect, vi } from 'vitest';
import { csrfHeaderName, proxyRoutes } from '../../src/contracts/proxy-contract.ts';

let proxies = 0;

/**
 * A proxy of its own per call (the page keeps one session per proxy), whose session the test sets: it answers the
 * session, sign-out and the fan's poll (no vote), checks every request's CSRF header and credentials, and keeps each
 * as `METHOD /path`.
 */
export function fakeProxy() {
  proxies += 1;
  const url = `https://polls${String(proxies)}.club.example`;
  const server = { userId: undefined as string | undefined };
  const sent: string[] = [];
  const fetchImpl = vi.fn((input: string, init: RequestInit = {}) => {
    const path = new URL(input).pathname;
    const method = init.method ?? 'GET';
    sent.push(`${method} ${path}`);
    expect(new Headers(init.headers).get(csrfHeaderName)).toBe('1');
    expect(init.credentials).toBe('include');
    if (method === 'GET' && path === proxyRoutes.session)
      return Promise.resolve(
        Response.json(server.userId ? { signedIn: true, userId: server.userId } : { signedIn: false }),
      );
    if (method === 'POST' && path === proxyRoutes.signOut) {
      server.userId = undefined;
      return Promise.resolve(new Response(null, { status: 204 }));
    }
    if (method === 'GET' && path.startsWith('/api/user/polls/'))
      return Promise.resolve(Response.json({ data: { userVote: false, answers: [] } }));
    return Promise.resolve(new Response('no route', { status: 404 }));
  });
  return { url, origin: new URL(url).origin, server, sent, fetchImpl: fetchImpl as unknown as typeof fetch };
}
