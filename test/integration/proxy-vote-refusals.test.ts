// Vote refusals through the proxy carry a stable reason a card can show, against the sandbox's vote rules.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProxyErrorBody } from '../../src/contracts/proxy-contract.ts';
import { proxyRoutes } from '../../src/contracts/proxy-contract.ts';
import type { Poll } from '../../src/platform/types.ts';
import { seededPollId } from '../../src/sandbox/data/seed-polls.ts';
import { castVote, fanHeaders, signIn, startHarness, type Harness } from './proxy-harness.ts';

const openPollId = seededPollId('riverside-player-of-the-month');
const closedPollId = seededPollId('riverside-charity-partner');

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness({ signInPerMinute: 10_000 });
});
afterAll(async () => {
  await harness.close();
});

async function fanCookie(username: string): Promise<string> {
  const { cookie } = await signIn(harness, { username });
  if (cookie === undefined) throw new Error('No session cookie.');
  return cookie;
}

async function firstAnswerOf(pollId: string): Promise<string> {
  const body = (await (await harness.call(proxyRoutes.poll(pollId))).json()) as { data: Poll };
  return body.data.answers[0]!.id;
}

const vote = (cookie: string, pollId: string, answerId: string) =>
  castVote(harness, cookie, pollId, answerId);

async function refusalOf(response: Response): Promise<ProxyErrorBody['error'] & { status: number }> {
  return { status: response.status, ...((await response.json()) as ProxyErrorBody).error };
}

describe('vote refusal reasons', () => {
  it('says already_voted for a second vote, with a message for people', async () => {
    const sam = await fanCookie('sam');
    const answerId = await firstAnswerOf(openPollId);
    expect((await vote(sam, openPollId, answerId)).status).toBe(201);
    expect(await refusalOf(await vote(sam, openPollId, answerId))).toEqual({
      status: 409,
      code: 'vote_refused',
      reason: 'already_voted',
      message: 'You have already voted in this poll.',
    });
  });

  it('says not_holder for a fan with none of the club’s tokens', async () => {
    const jo = await fanCookie('jo');
    expect(await refusalOf(await vote(jo, openPollId, await firstAnswerOf(openPollId)))).toMatchObject({
      status: 409,
      code: 'vote_refused',
      reason: 'not_holder',
    });
  });

  it('says poll_not_open for a closed poll, unknown_answer and unknown_poll', async () => {
    const alex = await fanCookie('alex');
    const closed = await refusalOf(await vote(alex, closedPollId, await firstAnswerOf(closedPollId)));
    expect(closed).toMatchObject({ code: 'vote_refused', reason: 'poll_not_open' });
    const strangerAnswer = await refusalOf(
      await vote(alex, openPollId, '00000000-0000-4000-8000-000000000001'),
    );
    expect(strangerAnswer).toMatchObject({ code: 'vote_refused', reason: 'unknown_answer' });
    const noPoll = await refusalOf(
      await vote(alex, '00000000-0000-4000-8000-00000000abcd', '00000000-0000-4000-8000-000000000001'),
    );
    expect(noPoll).toMatchObject({ code: 'vote_refused', reason: 'unknown_poll' });
  });

  it('puts no reason on errors that are not vote refusals', async () => {
    const me = await harness.call('/api/user/me', { headers: fanHeaders });
    const body = ((await me.json()) as ProxyErrorBody).error;
    expect(body.code).toBe('not_signed_in');
    expect(Object.keys(body)).not.toContain('reason');
  });
});
