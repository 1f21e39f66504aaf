import { requestableIds } from '../../src/polls/poll-ids.ts';
import { createLivePollStore, type LivePollStore } from '../../widget/store/poll-model.ts';
import type { BackgroundClient } from '../shared/background-client.ts';
import { maxUserPollIds } from '../shared/messages.ts';

/**
 * The live store of the popup's `<fan-poll>` cards: the fan's user-context polls (`/user/polls?ids[]=`), read through
 * the background, which holds the tokens. One batched read per tick for every card shown, paced by each poll's
 * phase like the page's store; a failure is the card's error state with its retry.
 */
export function popupPollStore(client: BackgroundClient): LivePollStore {
  return createLivePollStore({
    chunkSize: maxUserPollIds,
    fetchPolls: async (ids) => {
      const wanted = requestableIds(ids);
      return wanted.length === 0 ? [] : client.ask('user-polls', { userVoted: false, ids: wanted });
    },
  });
}
