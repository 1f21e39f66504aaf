// Starting and stopping a Node HTTP listener for a fetch handler: shared by the sandbox, the proxy, the demo page
// and the tests, so that each serves the same way (loopback by default, port 0 = a free port, close drops keep-alive).
import { serve, type ServerType } from '@hono/node-server';
import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type ServerOptions,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { loopbackHost } from '../local-defaults.ts';

/** A fetch handler; `env` carries Node's request and response (what `getConnInfo` reads). */
export type FetchHandler = (request: Request, env: unknown) => Response | Promise<Response>;

/**
 * Node's own request listener, asked before the fetch handler: it answers a request itself (true) or leaves it to
 * the fetch handler (false). For a hot path that needs no Request or Response object (the proxy's cached read).
 */
export type FirstListener = (request: IncomingMessage, response: ServerResponse) => boolean;

export interface LoopbackServer {
  readonly server: ServerType;
  /** The port bound: the one asked for, or the free one picked for 0. */
  readonly port: number;
  /** `http://<hostname>:<port>`, no trailing slash. */
  readonly url: string;
}

/** `http.createServer` whose listener asks `first` before the one Hono's adapter gives it. */
function createServerAsking(first: FirstListener): typeof createServer {
  const create = (options: ServerOptions, listener: RequestListener) =>
    createServer(options, (request, response) => {
      if (!first(request, response)) listener(request, response);
    });
  // `createServer`'s overloads (with and without options) in one signature: the adapter always passes both.
  return create as typeof createServer;
}

/**
 * Listens on `hostname` (default 127.0.0.1); resolves once bound, rejects when the port cannot be had. `first`, when
 * given, is asked about every request before `fetch`.
 */
export function listenOnLoopback(
  fetch: FetchHandler,
  port: number,
  hostname: string = loopbackHost,
  first?: FirstListener,
): Promise<LoopbackServer> {
  const withFirst = first === undefined ? {} : { createServer: createServerAsking(first) };
  return new Promise((resolve, reject) => {
    const server = serve({ fetch, port, hostname, ...withFirst }, (info: AddressInfo) => {
      resolve({ server, port: info.port, url: `http://${hostname}:${info.port}` });
    });
    server.once('error', reject);
  });
}

/**
 * Stops listening and ends open keep-alive connections, so that closing never waits on an idle client. With
 * `graceMs`, requests in flight get that long to finish first (idle connections close at once); without, every
 * connection is cut now.
 */
export function closeServer(server: ServerType, options: { graceMs?: number } = {}): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((error) => {
      if (error) reject(error);
      else resolve();
    });
    if (!('closeAllConnections' in server)) return;
    if (options.graceMs === undefined) {
      server.closeAllConnections();
      return;
    }
    server.closeIdleConnections();
    // Keep-alive connections that finish a request while draining are closed as they go idle.
    const sweep = setInterval(() => {
      server.closeIdleConnections();
    }, 100);
    const cut = setTimeout(() => {
      server.closeAllConnections();
    }, options.graceMs);
    server.once('close', () => {
      clearInterval(sweep);
      clearTimeout(cut);
    });
  });
}
