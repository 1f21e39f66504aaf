import { fetchPollsFromProxy } from '../../src/polls/proxy-source.ts';
import type { PollPrefetch } from '../delivery/prefetch.ts';
import { prefetchedFetch } from '../delivery/prefetched-fetch.ts';
import { readCardPolls } from './card-polls.ts';
import { createLivePollStore, type LivePollStore } from './poll-model.ts';

const stores = new Map<string, LivePollStore>();
let prefetch: PollPrefetch | undefined;

/** The entry's prefetched read, which the page's store for that proxy answers its first reads from. */
export function usePrefetch(next: PollPrefetch | undefined): void {
  prefetch ??= next;
}

/** The page's single live store for one proxy: every card and list on the page that uses the proxy shares it. */
export function pageStore(proxyUrl: string): LivePollStore {
  let store = stores.get(proxyUrl);
  if (!store) {
    const fetchImpl = prefetch?.url.startsWith(proxyUrl) ? prefetchedFetch(prefetch) : undefined;
    store = createLivePollStore({ fetchPolls: fetchPollsFromProxy(proxyUrl, readCardPolls, fetchImpl) });
    stores.set(proxyUrl, store);
  }
  return store;
}
