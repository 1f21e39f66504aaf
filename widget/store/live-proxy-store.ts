import { globalFetch, type FetchLike } from '../../src/platform/http.ts';
import type { FirstRead } from '../../src/polls/live-store-core.ts';
import { createLivePollStore } from '../../src/polls/live-store.ts';
import { errorFromProxyRead, fetchPollsFromProxy } from '../../src/polls/proxy-source.ts';
import { readCardPolls } from './card-polls.ts';
import type { FirstReadResult, StartLiveStore } from './first-read-store.ts';

/**
 * The `live` part: the page's live store through the proxy, started from the first paint's read (its polls, or its
 * failure as the error the proxy's answer means, `Retry-After` included).
 */
export function liveProxyStore(proxyUrl: string, fetchImpl: FetchLike = globalFetch): StartLiveStore {
  return async (firstRead) =>
    createLivePollStore({
      fetchPolls: fetchPollsFromProxy(proxyUrl, readCardPolls, fetchImpl),
      seed: await seedFrom(firstRead),
    });
}

async function seedFrom(firstRead: FirstReadResult): Promise<FirstRead> {
  const { ids, at } = firstRead;
  if ('polls' in firstRead) return { ids, at, polls: firstRead.polls };
  return { ids, at, error: await errorFromProxyRead(firstRead.failure, Date.now()) };
}
