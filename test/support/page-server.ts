// A one-page HTML server on loopback: a partner's page or a sign-in callback, one origin per server.
import { closeServer, listenOnLoopback } from '../../src/node/loopback-server.ts';

export interface PageServer {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  readonly url: string;
  close(): Promise<void>;
}

/** Serves `body` as HTML at every path on a free port, on `hostname` (another site: `localhost`). */
export async function servePage(body: string, hostname?: string): Promise<PageServer> {
  const { server, url } = await listenOnLoopback(
    () => new Response(body, { headers: { 'Content-Type': 'text/html; charset=utf-8' } }),
    0,
    hostname,
  );
  return { url, close: () => closeServer(server) };
}
