import { describe, expect, it } from 'vitest';
import { answerFixture, pollFixture } from '../../src/polls/poll-fixture.ts';
import { WidgetError } from '../../widget/voting/widget-error.ts';
import { BackgroundClient } from '../shared/background-client.ts';
import type { SerializedError } from '../shared/extension-error.ts';
import { fakeBackground } from '../testing/fake-background.ts';
import { popupVoteChannel } from './popup-vote-channel.ts';
import { RecentUserPolls } from './recent-user-polls.ts';

const pollId = '11111111-2222-4333-8444-555555555555';
const answerA = '21111111-2222-4333-8444-555555555555';
const answerB = '31111111-2222-4333-8444-555555555555';

describe('the popup’s vote channel', () => {
  it('votes once through the background and reads the fan’s view from the user-context poll', async () => {
    const poll = pollFixture({
      id: pollId,
      userVote: true,
      answers: [answerFixture({ id: answerA, voteStatus: 'pending' }), answerFixture({ id: answerB })],
    });
    const { client, asked } = fakeBackground({ vote: () => poll, 'user-poll': () => poll });
    const channel = popupVoteChannel(client);
    expect(channel.via).toBe('extension');
    await channel.vote(pollId, answerA);
    expect(await channel.fanView(pollId)).toEqual({
      userVote: true,
      answers: [{ id: answerA, voteStatus: 'pending' }, { id: answerB }],
    });
    expect(asked).toEqual([
      { type: 'vote', payload: { pollId, answerId: answerA } },
      { type: 'user-poll', payload: { pollId } },
    ]);
  });

  it('answers a card’s first fan view from the store’s fresh read, then asks the background again', async () => {
    const poll = pollFixture({
      id: pollId,
      userVote: true,
      answers: [answerFixture({ id: answerA, voteStatus: 'accepted' }), answerFixture({ id: answerB })],
    });
    const { client, asked } = fakeBackground({ 'user-poll': () => poll });
    const recent = new RecentUserPolls();
    recent.remember([poll]);
    const channel = popupVoteChannel(client, recent);
    expect(await channel.fanView(pollId)).toEqual({
      userVote: true,
      answers: [{ id: answerA, voteStatus: 'accepted' }, { id: answerB }],
    });
    expect(asked).toEqual([]);
    await channel.fanView(pollId);
    expect(asked).toEqual([{ type: 'user-poll', payload: { pollId } }]);
  });

  it('never answers a fan view after a vote from a read made before it', async () => {
    const before = pollFixture({
      id: pollId,
      answers: [answerFixture({ id: answerA }), answerFixture({ id: answerB })],
    });
    const after = pollFixture({
      id: pollId,
      userVote: true,
      answers: [answerFixture({ id: answerA, voteStatus: 'pending' }), answerFixture({ id: answerB })],
    });
    const { client } = fakeBackground({ vote: () => after, 'user-poll': () => after });
    const recent = new RecentUserPolls();
    recent.remember([before]);
    const channel = popupVoteChannel(client, recent);
    await channel.vote(pollId, answerA);
    expect((await channel.fanView(pollId)).answers[0]).toEqual({ id: answerA, voteStatus: 'pending' });
  });

  it('says whether the fan is signed in, and signs in through the background', async () => {
    const { client, asked } = fakeBackground({
      'session-status': () => ({ signedIn: false }),
      'sign-in': () => ({ signedIn: true, userId: 'u1' }),
    });
    const channel = popupVoteChannel(client);
    expect(await channel.isSignedIn()).toBe(false);
    expect(await channel.signIn({})).toBe(true);
    expect(asked.map((each) => each.type)).toEqual(['session-status', 'sign-in']);
  });

  it.each<[SerializedError, string]>([
    [{ code: 'refused', message: 'No', reason: 'not_holder' }, 'not-holder'],
    [{ code: 'refused', message: 'No', reason: 'already_voted' }, 'already-voted'],
    [{ code: 'refused', message: 'No', reason: 'poll_not_open' }, 'poll-closed'],
    [{ code: 'refused', message: 'No', reason: 'unknown_answer' }, 'vote-refused'],
    [{ code: 'refused', message: 'No' }, 'vote-refused'],
    [{ code: 'signed_out', message: 'No' }, 'sign-in-required'],
    [{ code: 'invalid_grant', message: 'No' }, 'sign-in-required'],
    [{ code: 'unavailable', message: 'No' }, 'vote-failed'],
    [{ code: 'rate_limited', message: 'No' }, 'vote-failed'],
  ])('turns the background’s %j into the card’s %s', async (refusal, expected) => {
    const { client } = fakeBackground({ vote: () => ({ refuse: refusal }) });
    const error: unknown = await popupVoteChannel(client)
      .vote(pollId, answerA)
      .catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(WidgetError);
    expect((error as WidgetError).code).toBe(expected);
  });

  it('reports a background that does not answer as a failed vote', async () => {
    const client = new BackgroundClient(() => Promise.reject(new Error('Receiving end does not exist.')));
    await expect(popupVoteChannel(client).vote(pollId, answerA)).rejects.toMatchObject({
      code: 'vote-failed',
    });
  });
});
