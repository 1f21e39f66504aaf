import { afterEach, describe, expect, it } from 'vitest';
import { pollFixture } from '../../src/polls/poll-fixture.ts';
import type { LivePollState, LivePollStore } from '../../widget/store/poll-model.ts';
import { fakeBackground } from '../testing/fake-background.ts';
import { popupPollStore } from './popup-poll-store.ts';
import { RecentUserPolls } from './recent-user-polls.ts';

const idA = '0b7c1d2e-3f40-4a5b-8c6d-7e8f90a1b2c3';
const idB = '1c8d2e3f-4051-4b6c-9d7e-8f90a1b2c3d4';
let store: LivePollStore | undefined;

afterEach(() => {
  store?.dispose();
});

/** The next state of `pollId` that is not `loading`. */
function settled(target: LivePollStore, pollId: string): Promise<LivePollState> {
  return new Promise((resolve) => {
    const stop = target.subscribe(pollId, (state) => {
      if (state.status === 'loading') return;
      queueMicrotask(stop);
      resolve(state);
    });
  });
}

describe('the popup’s poll store', () => {
  it('reads every card’s poll in one user-context read of their ids (lower-cased, each once)', async () => {
    const { client, asked } = fakeBackground({
      'user-polls': ({ ids }) => (ids ?? []).map((id) => pollFixture({ id })),
    });
    store = popupPollStore(client);
    const [a, b] = await Promise.all([settled(store, idA.toUpperCase()), settled(store, idB)]);
    expect(a).toMatchObject({ status: 'ready', poll: { id: idA } });
    expect(b).toMatchObject({ status: 'ready', poll: { id: idB } });
    expect(asked).toEqual([{ type: 'user-polls', payload: { userVoted: false, ids: [idA, idB] } }]);
  });

  it('keeps what it read for the cards’ vote channel', async () => {
    const { client } = fakeBackground({
      'user-polls': ({ ids }) => (ids ?? []).map((id) => pollFixture({ id })),
    });
    const recent = new RecentUserPolls();
    store = popupPollStore(client, recent);
    await settled(store, idA);
    expect(recent.take(idA)?.id).toBe(idA);
  });

  it('asks nothing for ids that are not uuids, and the card hears not_found', async () => {
    const { client, asked } = fakeBackground({ 'user-polls': () => [] });
    store = popupPollStore(client);
    const state = await settled(store, 'not-a-poll');
    expect(state).toMatchObject({ status: 'error', error: { code: 'not_found' } });
    expect(asked).toEqual([]);
  });

  it('turns a refusal of the background into the card’s error state', async () => {
    const { client } = fakeBackground({
      'user-polls': () => ({ refuse: { code: 'signed_out', message: 'Sign in' } }),
    });
    store = popupPollStore(client);
    expect(await settled(store, idA)).toMatchObject({ status: 'error' });
  });
});
