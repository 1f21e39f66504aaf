import type { FetchPolls } from '../../src/polls/live-store-core.ts';
import { proxyPollsUrl } from '../../src/polls/proxy-polls-url.ts';
import { readCardPolls } from './card-polls.ts';

/**
 * The first paint's read through the proxy: the same URL as the live store's (one CDN entry), public and cookie-less.
 * It leaves failures raw (a refused answer is thrown as its `Response`, unread) for the live store, which reads the
 * proxy's error body and `Retry-After` (`live-proxy-store.ts`); the first paint carries no error mapping.
 */
export function firstReadFromProxy(
  proxyUrl: string,
  fetchImpl: typeof fetch = fetch.bind(globalThis),
): FetchPolls {
  return async (ids) => {
    const url = proxyPollsUrl(proxyUrl, ids);
    if (url === undefined) return [];
    const response = await fetchImpl(url, {
      headers: { Accept: 'application/json' },
      credentials: 'omit',
      signal: AbortSignal.timeout(10_000),
    });
    // eslint-disable-next-line @typescript-eslint/only-throw-error -- handed to the live store, which reads it.
    if (!response.ok) throw response;
    return readCardPolls(await response.json());
  };
}
