import { handOverPacer } from '../../src/polls/handover-pacer.ts';
import { createPacedLivePollStore } from '../../src/polls/live-store-core.ts';
import { fetchPollsFromProxy } from '../../src/polls/proxy-source.ts';
import type { PollPrefetch } from '../delivery/prefetch.ts';
import { prefetchedFetch } from '../delivery/prefetched-fetch.ts';
import { readCardPolls } from './card-polls.ts';
import { firstReadAtOnce } from './first-read-at-once.ts';
import type { LivePollStore } from './poll-model.ts';

const stores = new Map<string, LivePollStore>();
let prefetch: PollPrefetch | undefined;

/** The entry's prefetched read, which the page's store for that proxy answers its first reads from. */
export function usePrefetch(next: PollPrefetch | undefined): void {
  prefetch ??= next;
}

/**
 * The page's single live store for one proxy: every card and list on the page that uses the proxy shares it. With the
 * entry's prefetch, its first read answers from it at once (`firstReadAtOnce`); its pacing (the page's one live
 * stream of its polls from the proxy, reads for what the stream does not carry, the backoff) arrives after that read
 * (`handOverPacer`, `live-stream.ts`).
 */
export function pageStore(proxyUrl: string): LivePollStore {
  let store = stores.get(proxyUrl);
  if (!store) {
    const prefetched = prefetch?.url.startsWith(proxyUrl) ? prefetch : undefined;
    store = createPacedLivePollStore(
      {
        fetchPolls: fetchPollsFromProxy(
          proxyUrl,
          readCardPolls,
          prefetched ? prefetchedFetch(prefetched) : undefined,
        ),
        ...(prefetched ? { scheduler: firstReadAtOnce() } : {}),
      },
      // The page's stream and the reads beside it, a chunk of its own: no card's first paint waits for it.
      handOverPacer(() => import('./live-stream.ts').then(({ livePacer }) => livePacer(proxyUrl))),
    );
    stores.set(proxyUrl, store);
  }
  return store;
}
