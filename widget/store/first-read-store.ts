import {
  createPacedLivePollStore,
  firstReadPacer,
  type FetchPolls,
  type LivePollStore,
} from '../../src/polls/live-store-core.ts';
import type { PartModules } from '../runtime/parts.ts';

/**
 * The script-tag widget's page store: the live store with a pacer that reads each subscribed poll once, so the first
 * paint carries no pacing. After the first read it loads the `live` part (pace by phase, backoff, `Retry-After`,
 * change detection), which takes over the same subscriptions. A failed load is tried again after the next read.
 */
export function createFirstReadStore(
  fetchPolls: FetchPolls,
  loadLive: () => Promise<PartModules['live']>,
): LivePollStore {
  let loading = false;
  const store = createPacedLivePollStore(
    { fetchPolls },
    firstReadPacer(() => {
      if (loading) return;
      loading = true;
      loadLive().then(
        ({ adaptivePacer }) => {
          store.usePacer(adaptivePacer());
        },
        (error: unknown) => {
          loading = false;
          console.error('Fan Polls: live updates are unavailable until the next read.', error);
        },
      );
    }),
  );
  return store;
}
