import { globalFetch, type FetchLike } from '../../src/platform/http.ts';
import type { PollPrefetch } from './prefetch.ts';

/** How long a prefetched answer stands in for a read: the proxy's own freshness (`FAN_POLLS_POLL_CACHE_SECONDS`). */
const prefetchFreshMs = 5000;

/**
 * The live store's fetch, answering a read from the entry's prefetch when it asks for a subset of the prefetched ids
 * while the prefetch is fresh (a copy of the same answer each time, so every subset reads it whole), each id once:
 * the store times its next read of a poll from the answer's `Age`, and that read must reach the proxy. Any other
 * read goes to the network.
 */
export function prefetchedFetch(
  prefetch: PollPrefetch | undefined,
  fetchImpl: FetchLike = globalFetch,
  now: () => number = Date.now,
): FetchLike {
  if (!prefetch) return fetchImpl;
  const prefetchedIds = new Set(idsOf(prefetch.url));
  const path = withoutQuery(prefetch.url);
  return async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const covered =
      now() - prefetch.at < prefetchFreshMs &&
      withoutQuery(url) === path &&
      idsOf(url).every((id) => prefetchedIds.has(id));
    if (!covered) return fetchImpl(input, init);
    // Once per poll: the store's next read of it, timed from the answer's `Age`, must see the proxy's next copy.
    for (const id of idsOf(url)) prefetchedIds.delete(id);
    return (await prefetch.response).clone();
  };
}

function idsOf(url: string): string[] {
  return new URL(url).searchParams.getAll('ids[]');
}

function withoutQuery(url: string): string {
  return url.split('?')[0] ?? url;
}
