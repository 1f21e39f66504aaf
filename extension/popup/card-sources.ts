import type { LivePollStore } from '../../widget/store/poll-model.ts';
import type { VoteChannel } from '../../widget/voting/vote-channel.ts';
import type { BackgroundClient } from '../shared/background-client.ts';
import { popupPollStore } from './popup-poll-store.ts';
import { popupVoteChannel } from './popup-vote-channel.ts';
import { RecentUserPolls } from './recent-user-polls.ts';

/** What the popup's `<fan-poll>` cards read and vote through. */
export interface CardSources {
  readonly store: LivePollStore;
  readonly channel: VoteChannel;
}

/**
 * One store for every card (one batched read) and the vote channel; the store's read also answers each card's first
 * fan-view read (one request for the popup, not one per card).
 */
export function cardSources(client: BackgroundClient): CardSources {
  const recent = new RecentUserPolls();
  return { store: popupPollStore(client, recent), channel: popupVoteChannel(client, recent) };
}
