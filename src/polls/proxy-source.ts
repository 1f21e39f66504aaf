import type { ProxyErrorBody } from '../contracts/proxy-contract.ts';
import { errorFromFetchFailure, PlatformError } from '../platform/errors.ts';
import { globalFetch, readJsonBody, type FetchLike } from '../platform/http.ts';
import { isRecord } from '../contracts/is-record.ts';
import { parseRetryAfter } from '../platform/retry-after.ts';
import type { Poll } from '../platform/types.ts';
import type { FetchPolls } from './live-store.ts';
import { proxyPollsUrl } from './proxy-polls-url.ts';

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

/** The live store's poll source through the partner proxy (`proxyPollsUrl`): public and cookie-less. */
export function fetchPollsFromProxy(
  proxyUrl: string,
  readPolls: ReadPolls,
  fetch: FetchLike = globalFetch,
  options: ProxySourceOptions = {},
): FetchPolls {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const now = options.now ?? Date.now;

  return async (ids: readonly string[]): Promise<readonly Poll[]> => {
    const url = proxyPollsUrl(proxyUrl, ids);
    if (url === undefined) return [];
    let response: Response;
    let body: unknown;
    try {
      response = await fetch(url, {
        method: 'GET',
        headers: { Accept: 'application/json' },
        credentials: 'omit',
        signal: AbortSignal.timeout(timeoutMs),
      });
      body = await readJsonBody(response);
    } catch (error) {
      throw errorFromFetchFailure(error, readingFromProxy);
    }
    if (!response.ok) throw errorFromProxyAnswer(response, body, now());
    return readPolls(body);
  };
}

const readingFromProxy = 'Reading polls from the proxy';

/** A proxy's error answer (`ProxyErrorBody`) as the PlatformError the store understands. */
export function errorFromProxyAnswer(response: Response, body: unknown, now: number): PlatformError {
  const proxyError = isProxyErrorBody(body) ? body.error : undefined;
  const status = response.status;
  const details = { status, ...(proxyError === undefined ? {} : { platformCode: proxyError.code }) };
  const message = `Reading polls from the proxy: HTTP ${status}${proxyError === undefined ? '' : ` (${proxyError.code})`}`;
  if (status === 429 || proxyError?.code === 'upstream_throttled' || proxyError?.code === 'rate_limited') {
    const retryAt =
      parseRetryAfter(response.headers.get('retry-after'), now) ??
      (proxyError?.retryAfterSeconds === undefined
        ? undefined
        : new Date(now + proxyError.retryAfterSeconds * 1000));
    return new PlatformError('throttled', message, {
      ...details,
      ...(retryAt === undefined ? {} : { retryAt }),
    });
  }
  if (status === 404) return new PlatformError('not_found', message, details);
  if (status >= 400 && status < 500) return new PlatformError('bad_request', message, details);
  return new PlatformError('platform_error', message, details);
}

function isProxyErrorBody(body: unknown): body is ProxyErrorBody {
  return isRecord(body) && isRecord(body.error) && typeof body.error.code === 'string';
}
