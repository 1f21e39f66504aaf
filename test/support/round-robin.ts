// A round-robin load balancer on a loopback port, as a rolling deploy looks from a page: each request goes to the
// next backend in turn. The backends can be swapped at any time (old only, old and new, new only).
import { closeServer, listenOnLoopback } from '../../src/node/loopback-server.ts';

export interface RoundRobin {
  readonly url: string;
  /** The proxies' base URLs requests go to from now on, in turn. */
  setBackends(backends: readonly string[]): void;
  /** Which backend answered each request, with its path and status. */
  readonly served: { backend: string; path: string; status: number }[];
  close(): Promise<void>;
}

/** Statuses the fetch API's `Response` refuses a body for. */
const bodiless = new Set([204, 205, 304]);

export async function startRoundRobin(backends: readonly string[]): Promise<RoundRobin> {
  let current = [...backends];
  let next = 0;
  const served: RoundRobin['served'] = [];
  const { server, url } = await listenOnLoopback(async (request) => {
    const backend = current[next++ % current.length];
    if (backend === undefined) return new Response('No backend', { status: 503 });
    const target = new URL(request.url);
    const headers = new Headers(request.headers);
    headers.delete('host');
    const answer = await fetch(`${backend}${target.pathname}${target.search}`, {
      method: request.method,
      headers,
      redirect: 'manual',
    });
    served.push({ backend, path: target.pathname, status: answer.status });
    const body = await answer.arrayBuffer();
    const forwarded = new Headers(answer.headers);
    forwarded.delete('content-encoding');
    forwarded.delete('content-length');
    forwarded.delete('transfer-encoding');
    return new Response(bodiless.has(answer.status) ? null : body, {
      status: answer.status,
      headers: forwarded,
    });
  }, 0);
  return {
    url,
    setBackends: (list) => {
      current = [...list];
    },
    served,
    close: () => closeServer(server),
  };
}
