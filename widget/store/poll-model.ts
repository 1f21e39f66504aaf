/** The one place the widget meets the poll model (`src/polls`): what a card shows and the page's live store. */
export { viewPoll, type PollView, type AnswerView } from '../../src/polls/poll-view.ts';
export { createLivePollStore, type LivePollState, type LivePollStore } from '../../src/polls/live-store.ts';
