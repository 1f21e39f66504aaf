import type { Poll } from '../../src/platform/types.ts';
import { answerFixture, pollFixture } from '../../src/polls/poll-fixture.ts';
import type { LivePollState, LivePollStore } from '../store/poll-model.ts';
import type { FanPollView, VoteChannel } from '../voting/vote-channel.ts';

const hour = 3_600_000;

/** A poll whose phase is `phase` now (dates placed around the real clock). */
export function pollIn(
  phase: 'upcoming' | 'open' | 'closed' | 'disclosed',
  overrides: Partial<Poll> = {},
): Poll {
  const now = Date.now();
  const at = (offsetHours: number): string => new Date(now + offsetHours * hour).toISOString();
  const dates = {
    upcoming: { openAt: at(2), closeAt: at(5), disclosedAt: at(6) },
    open: { openAt: at(-1), closeAt: at(2), disclosedAt: at(3) },
    closed: { openAt: at(-3), closeAt: at(-1), disclosedAt: at(2) },
    disclosed: { openAt: at(-5), closeAt: at(-3), disclosedAt: at(-2) },
  }[phase];
  return pollFixture({
    id: 'poll-1',
    answers: [
      answerFixture({ id: 'a1', answer: 'Ada', totalVoteTokensUsed: 30 }),
      answerFixture({ id: 'a2', answer: 'Bea', totalVoteTokensUsed: 10 }),
    ],
    ...dates,
    ...overrides,
  });
}

/** A store the test drives by hand: `emit` sends a state to the card. */
export function fakeStore(initial: LivePollState = { status: 'loading' }) {
  let listener: ((state: LivePollState) => void) | undefined;
  const store = {
    refreshes: 0,
    subscribe(_pollId: string, next: (state: LivePollState) => void) {
      listener = next;
      next(initial);
      return () => {
        listener = undefined;
      };
    },
    refresh() {
      store.refreshes += 1;
    },
    dispose() {},
    emit(state: LivePollState) {
      listener?.(state);
    },
  } satisfies LivePollStore & Record<string, unknown>;
  return store;
}

/** A vote channel the test controls. */
export function fakeChannel(
  options: { signedIn?: boolean; fanView?: FanPollView; vote?: () => Promise<void> } = {},
) {
  const calls = { signIn: 0, vote: [] as string[] };
  let signedIn = options.signedIn ?? false;
  const channel: VoteChannel = {
    via: 'popup',
    isSignedIn: () => Promise.resolve(signedIn),
    signIn: () => {
      calls.signIn += 1;
      signedIn = true;
      return Promise.resolve(true);
    },
    fanView: () => Promise.resolve(options.fanView ?? { userVote: false, answers: [] }),
    vote: (_pollId, answerId) => {
      calls.vote.push(answerId);
      return options.vote ? options.vote().then(() => answerId) : Promise.resolve(answerId);
    },
  };
  return { channel, calls };
}
