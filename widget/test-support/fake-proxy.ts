import { expect, vi } from 'vitest';
import { csrfHeaderName, proxyRoutes } from '../../src/contracts/proxy-contract.ts';

let proxies = 0;

/**
 * A proxy of its own per call (the page keeps one session per proxy), whose session the test sets: it answers the
 * session, sign-out, a vote (which the platform keeps pending) and the fan's poll (401 when signed out), checks every
 * request's CSRF header and credentials, and keeps each as `METHOD /path`.
 */
export function fakeProxy() {
  proxies += 1;
  const url = `https://polls${String(proxies)}.club.example`;
  const server = { userId: undefined as string | undefined, pendingVote: undefined as string | undefined };
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
    if (path.startsWith('/api/user/polls/') && server.userId === undefined)
      return Promise.resolve(Response.json({ error: { code: 'not_signed_in' } }, { status: 401 }));
    if (method === 'POST' && path.endsWith('/vote')) {
      const { answerId } = JSON.parse(init.body as string) as { answerId: string };
      server.pendingVote = answerId;
      return Promise.resolve(Response.json({ data: {} }));
    }
    if (method === 'GET' && path.startsWith('/api/user/polls/')) {
      const vote = server.pendingVote;
      const answers = vote === undefined ? [] : [{ id: vote, voteStatus: 'pending' }];
      return Promise.resolve(Response.json({ data: { userVote: vote !== undefined, answers } }));
    }
    return Promise.resolve(new Response('no route', { status: 404 }));
  });
  return { url, origin: new URL(url).origin, server, sent, fetchImpl: fetchImpl as unknown as typeof fetch };
}
