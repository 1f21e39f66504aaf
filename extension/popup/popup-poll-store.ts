import { requestableIds } from '../../src/polls/poll-ids.ts';
import { createLivePollStore, type LivePollStore } from '../../widget/store/poll-model.ts';
import type { BackgroundClient } from '../shared/background-client.ts';
import { maxUserPollIds } from '../shared/messages.ts';
import type { RecentUserPolls } from './recent-user-polls.ts';

/**
 * The live store of the popup's `<fan-poll>` cards: the fan's user-context polls (`/user/polls?ids[]=`), read through
 * the background, which holds the tokens. One batched read per tick for every card shown, paced by each poll's
 * phase like the page's store; a failure is the card's error state with its retry. What it reads is also kept in
 * `recent`, where the cards' vote channel finds each fan view it would otherwise read again.
 */
export function popupPollStore(client: BackgroundClient, recent?: RecentUserPolls): LivePollStore {
  return createLivePollStore({
    chunkSize: maxUserPollIds,
    fetchPolls: async (ids) => {
      const wanted = requestableIds(ids);
      if (wanted.length === 0) return [];
      const polls = await client.ask('user-polls', { userVoted: false, ids: wanted });
      recent?.remember(polls);
      return polls;
    },
  });
}
