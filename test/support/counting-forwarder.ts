// A forwarder on a free loopback port in front of a server: every request passes through unchanged and is recorded,
// so a test can count what reached the platform (the extension calls the platform's API directly).
import { closeServer, listenOnLoopback } from '../../src/node/loopback-server.ts';

export interface ForwardedRequest {
  readonly method: string;
  readonly path: string;
}

export interface CountingForwarder {
  /** `http://127.0.0.1:<port>`: point the client here instead of at `target`. */
  readonly url: string;
  readonly requests: ForwardedRequest[];
  close(): Promise<void>;
}

export async function forwardAndCount(target: string): Promise<CountingForwarder> {
  const requests: ForwardedRequest[] = [];
  const { server, url } = await listenOnLoopback(async (request) => {
    const incoming = new URL(request.url);
    requests.push({ method: request.method, path: incoming.pathname });
    const headers = new Headers(request.headers);
    headers.delete('host');
    const body =
      request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.arrayBuffer();
    const answer = await fetch(new URL(`${incoming.pathname}${incoming.search}`, target), {
      method: request.method,
      headers,
      body,
      redirect: 'manual',
    });
    const answerHeaders = new Headers(answer.headers);
    answerHeaders.delete('content-encoding');
    answerHeaders.delete('content-length');
    return new Response(await answer.arrayBuffer(), { status: answer.status, headers: answerHeaders });
  }, 0);
  return { url, requests, close: () => closeServer(server) };
}
