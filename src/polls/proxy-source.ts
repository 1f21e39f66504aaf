import {
  proxyClient,
  proxyUnexpectedAnswer,
  proxyUnreachable,
  type ProxyClientError,
} from '../contracts/proxy-client.ts';
import { errorFromFetchFailure, PlatformError } from '../platform/errors.ts';
import { globalFetch, type FetchLike } from '../platform/http.ts';
import type { Poll } from '../platform/types.ts';
import { freshForMs } from './answer-freshness.ts';
import type { FetchPolls } from './live-store.ts';
import { proxyPollsPath } from './proxy-polls-path.ts';

export interface ProxySourceOptions {
  /** Per request; default 10 s. */
  readonly timeoutMs?: number;
  readonly now?: () => number;
}

/**
 * Turns the proxy's answer body into polls. Hosts pass the platform's tolerant parser (`parsePollList`); the
 * script-tag widget passes a lean shape check instead, because the proxy has already parsed the platform's answer and
 * the full parser would add 2.3 kB gzip to its element code.
 */
export type ReadPolls = (body: unknown) => readonly Poll[];

/** The live store's poll source through the partner proxy (`proxyPollsPath`): public and cookie-less. */
export function fetchPollsFromProxy(
  proxyUrl: string,
  readPolls: ReadPolls,
  fetch: FetchLike = globalFetch,
  options: ProxySourceOptions = {},
): FetchPolls {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const now = options.now ?? Date.now;

  return async (ids) => {
    const path = proxyPollsPath(ids);
    if (path === undefined) return [];
    let body: unknown;
    let fresh = NaN;
    // A client per read: the answer's freshness belongs to this read (a tick may send several at once).
    const proxy = proxyClient(
      proxyUrl,
      async (input, init) => {
        const answer = await fetch(input, init);
        fresh = freshForMs(answer.headers);
        return answer;
      },
      timeoutMs,
    );
    try {
      body = await proxy.call(path, { credentials: 'omit' });
    } catch (caught) {
      const error = caught as ProxyClientError;
      // A success that is not JSON is not a poll list: the parser says so, as for any other wrong body.
      if (error.code === proxyUnexpectedAnswer && (error.status ?? 0) < 300) return readPolls(undefined);
      throw errorFromProxyAnswer(error, now());
    }
    return Object.assign(readPolls(body), { freshForMs: fresh });
  };
}

const readingFromProxy = 'Reading polls from the proxy';

/** The proxy client's error as the PlatformError the store understands. */
function errorFromProxyAnswer(error: ProxyClientError, now: number): PlatformError {
  if (error.code === proxyUnreachable) return errorFromFetchFailure(error.cause, readingFromProxy);
  const status = error.status ?? 0;
  const proxyCode = error.code === proxyUnexpectedAnswer ? undefined : error.code;
  const details = { status, ...(proxyCode === undefined ? {} : { platformCode: proxyCode }) };
  const message = `${readingFromProxy}: HTTP ${status}${proxyCode === undefined ? '' : ` (${proxyCode})`}`;
  if (status === 429 || proxyCode === 'upstream_throttled' || proxyCode === 'rate_limited') {
    const retryAt =
      error.retryAfterSeconds === undefined ? undefined : new Date(now + error.retryAfterSeconds * 1000);
    return new PlatformError('throttled', message, {
      ...details,
      ...(retryAt === undefined ? {} : { retryAt }),
    });
  }
  if (status === 404) return new PlatformError('not_found', message, details);
  if (status >= 400 && status < 500) return new PlatformError('bad_request', message, details);
  return new PlatformError('platform_error', message, details);
}
