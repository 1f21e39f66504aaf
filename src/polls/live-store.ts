import { adaptivePacer, type AdaptivePacerOptions } from './adaptive-pacer.ts';
import {
  createPacedLivePollStore,
  type LiveStoreCoreOptions,
  type LivePollStore,
} from './live-store-core.ts';

export type {
  FetchPolls,
  LivePollError,
  LivePollListener,
  LivePollState,
  LivePollStore,
} from './live-store-core.ts';

export interface LivePollStoreOptions extends LiveStoreCoreOptions, AdaptivePacerOptions {}

/**
 * The page's live poll store: every card subscribes here, and all of them share one timer and one batched read per
 * tick. Pace follows each poll's phase; nothing is read while the page is hidden or offline; failures back off with
 * full jitter and honour the platform's `Retry-After`. (The store is `live-store-core.ts`, its pacing
 * `adaptive-pacer.ts`.)
 */
export function createLivePollStore(options: LivePollStoreOptions): LivePollStore {
  return createPacedLivePollStore(options, adaptivePacer(options));
}
