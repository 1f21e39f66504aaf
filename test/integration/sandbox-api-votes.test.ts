import { describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/sandbox/sandbox.ts';
import { SandboxClock } from '../../src/sandbox/clock.ts';
import { apiRequest, applicationToken, fanToken, voteRequest } from '../../src/sandbox/test-kit.ts';
import { seededPollId } from '../../src/sandbox/data/seed-polls.ts';

interface AnswerJson {
  id: string;
  votePercentage: string;
  totalVoteTokensUsed: number;
  statistics: { uniqueAnswerVoteCount: number };
  voteStatus?: string | null;
}
interface PollJson {
  id: string;
  usedTokenCount: number;
  tokenLimit: number;
  currentQuorumPercentage: string;
  quorum: string;
  isQuorumReached: boolean;
  statistics: { uniqueVoteCount: number };
  userVote?: boolean;
  answers: AnswerJson[];
}

const kit = seededPollId('riverside-away-kit');

function frozenSandbox(voteConfirmationMs = 4000): { sandbox: Sandbox; clock: SandboxClock } {
  const clock = new SandboxClock();
  clock.freeze();
  return { sandbox: createSandbox({ clock, voteConfirmationMs }), clock };
}

async function readUserPoll(sandbox: Sandbox, token: string, pollId: string): Promise<PollJson> {
  const response = await apiRequest(sandbox, `/polls/1.0.8/user/poll/${pollId}`, token);
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: PollJson }).data;
}

async function refusal(response: Response, status: number, description: RegExp): Promise<void> {
  expect(response.status).toBe(status);
  const body = (await response.json()) as { code: string; description: string };
  expect(body.code).toBe(String(status));
  expect(body.description).toMatch(description);
}

describe('sandbox votes', () => {
  it('records a holder’s vote with 201 and no body, weighted by tokens capped at tokenLimit', async () => {
    const { sandbox } = frozenSandbox();
    const sam = fanToken(sandbox, 'sam'); // 250 RIV, limit 1000: weight 250
    const before = await readUserPoll(sandbox, sam, kit);
    const answer = before.answers[1]!;
    const response = await voteRequest(sandbox, sam, kit, answer.id);
    expect(response.status).toBe(201);
    expect(await response.text()).toBe('');
    const after = await readUserPoll(sandbox, sam, kit);
    expect(after.userVote).toBe(true);
    expect(after.usedTokenCount).toBe(before.usedTokenCount + 250);
    expect(after.statistics.uniqueVoteCount).toBe(before.statistics.uniqueVoteCount + 1);
    expect(after.answers[1]!.totalVoteTokensUsed).toBe(answer.totalVoteTokensUsed + 250);
    expect(after.answers[1]!.statistics.uniqueAnswerVoteCount).toBe(
      answer.statistics.uniqueAnswerVoteCount + 1,
    );
    expect(after.answers[0]!.totalVoteTokensUsed).toBe(before.answers[0]!.totalVoteTokensUsed);
    const expectedShare = (after.answers[1]!.totalVoteTokensUsed * 100) / after.usedTokenCount;
    expect(Number(after.answers[1]!.votePercentage)).toBeCloseTo(expectedShare, 1);
    const shares = after.answers.reduce((sum, a) => sum + Math.round(Number(a.votePercentage) * 100), 0);
    expect(shares).toBe(10_000);
    expect(Number(after.currentQuorumPercentage)).toBeGreaterThan(Number(before.currentQuorumPercentage));
  });

  it('caps the weight at tokenLimit', async () => {
    const { sandbox } = frozenSandbox();
    const id = seededPollId('northgate-walkout-song'); // limit 250; kim holds 5000 NGU
    const kim = fanToken(sandbox, 'kim');
    const before = await readUserPoll(sandbox, kim, id);
    expect((await voteRequest(sandbox, kim, id, before.answers[0]!.id)).status).toBe(201);
    expect((await readUserPoll(sandbox, kim, id)).usedTokenCount).toBe(before.usedTokenCount + 250);
  });

  it('turns isQuorumReached true once enough tokens voted', async () => {
    const { sandbox } = frozenSandbox();
    const id = seededPollId('riverside-away-kit');
    const poll = sandbox.polls.find(id)!;
    expect(sandbox.polls.tally(poll).isQuorumReached).toBe(false);
    const needed = Number(poll.quorum) * poll.eligibleTokenSupply - sandbox.polls.tally(poll).usedTokenCount;
    for (let index = 0; index * poll.tokenLimit < needed; index += 1) {
      sandbox.polls.recordSimulatedVote(poll, poll.answers[0]!.id, `bulk-${index}`, poll.tokenLimit);
    }
    const view = await readUserPoll(sandbox, fanToken(sandbox, 'alex'), id);
    expect(view.isQuorumReached).toBe(true);
    expect(Number(view.currentQuorumPercentage)).toBeGreaterThanOrEqual(Number(view.quorum));
  });

  it('refuses a second vote in the same poll with 409', async () => {
    const { sandbox } = frozenSandbox();
    const sam = fanToken(sandbox, 'sam');
    const answers = (await readUserPoll(sandbox, sam, kit)).answers;
    expect((await voteRequest(sandbox, sam, kit, answers[0]!.id)).status).toBe(201);
    await refusal(await voteRequest(sandbox, sam, kit, answers[1]!.id), 409, /already voted/);
    // Another token of the same fan is the same fan.
    await refusal(
      await voteRequest(sandbox, fanToken(sandbox, 'sam'), kit, answers[0]!.id),
      409,
      /already voted/,
    );
  });

  it('refuses a fan who holds none of the partner’s tokens with 403', async () => {
    const { sandbox } = frozenSandbox();
    const answers = sandbox.polls.find(kit)!.answers;
    await refusal(
      await voteRequest(sandbox, fanToken(sandbox, 'jo'), kit, answers[0]!.id),
      403,
      /holds no fan tokens/,
    );
    await refusal(
      await voteRequest(sandbox, fanToken(sandbox, 'kim'), kit, answers[0]!.id),
      403,
      /holds no fan tokens/,
    );
  });

  it('refuses scheduled, closed, disclosed and cancelled polls with 422, each with its own description', async () => {
    const { sandbox } = frozenSandbox();
    const sam = fanToken(sandbox, 'sam');
    const cases: [string, RegExp][] = [
      ['riverside-preseason-destination', /not open yet/],
      ['northgate-goal-of-the-season', /is closed/],
      ['harbour-finals-jersey', /is closed/],
      ['riverside-away-day-travel', /was cancelled/],
      ['harbour-stream-schedule', /was cancelled/],
    ];
    for (const [key, description] of cases) {
      const poll = sandbox.polls.find(seededPollId(key))!;
      await refusal(await voteRequest(sandbox, sam, poll.id, poll.answers[0]!.id), 422, description);
    }
  });

  it('refuses an answer of another poll with 400 and an unknown poll with 404 Entity not found', async () => {
    const { sandbox } = frozenSandbox();
    const sam = fanToken(sandbox, 'sam');
    const otherAnswer = sandbox.polls.find(seededPollId('riverside-player-of-the-month'))!.answers[0]!.id;
    await refusal(await voteRequest(sandbox, sam, kit, otherAnswer), 400, /is not an answer of poll/);
    const missing = await voteRequest(sandbox, sam, '00000000-0000-4000-8000-000000000000', otherAnswer);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ code: '404', message: 'Entity not found' });
  });

  it('refuses a body that is not JSON with a string answerId with 400', async () => {
    const { sandbox } = frozenSandbox();
    const sam = fanToken(sandbox, 'sam');
    const path = `/polls/1.0.8/user/poll/${kit}/vote`;
    const bodies: [Record<string, string>, string, RegExp][] = [
      [{ 'Content-Type': 'application/json' }, '{"answerId":', /not valid JSON/],
      [{ 'Content-Type': 'application/json' }, '{"answer":"x"}', /string "answerId"/],
      [{ 'Content-Type': 'application/json' }, '{"answerId":42}', /string "answerId"/],
      [{ 'Content-Type': 'application/json' }, '[]', /string "answerId"/],
      [{ 'Content-Type': 'text/plain' }, '{"answerId":"x"}', /Content-Type: application\/json/],
    ];
    for (const [headers, body, description] of bodies) {
      await refusal(
        await apiRequest(sandbox, path, sam, { method: 'POST', headers, body }),
        400,
        description,
      );
    }
  });
});

describe('sandbox vote confirmation', () => {
  it('shows voteStatus pending, then accepted after voteConfirmationMs by the clock', async () => {
    const { sandbox, clock } = frozenSandbox(5000);
    const alex = fanToken(sandbox, 'alex');
    const answerId = sandbox.polls.find(kit)!.answers[2]!.id;
    expect((await voteRequest(sandbox, alex, kit, answerId)).status).toBe(201);
    const statuses = async (): Promise<(string | null | undefined)[]> =>
      (await readUserPoll(sandbox, alex, kit)).answers.map((answer) => answer.voteStatus);
    expect(await statuses()).toEqual([null, null, 'pending']);
    clock.advance(4999);
    expect(await statuses()).toEqual([null, null, 'pending']);
    clock.advance(1);
    expect(await statuses()).toEqual([null, null, 'accepted']);
  });

  it('ends a vote rejected when the control setting says so; it drops out and the fan may vote again', async () => {
    const { sandbox, clock } = frozenSandbox(1000);
    const alex = fanToken(sandbox, 'alex');
    const answers = sandbox.polls.find(kit)!.answers;
    const before = await readUserPoll(sandbox, alex, kit);
    sandbox.polls.rejectNextVotes(1);
    expect((await voteRequest(sandbox, alex, kit, answers[0]!.id)).status).toBe(201);
    const pending = await readUserPoll(sandbox, alex, kit);
    expect(pending.usedTokenCount).toBe(before.usedTokenCount + 12);
    expect(pending.answers[0]!.voteStatus).toBe('pending');
    clock.advance(1000);
    const rejected = await readUserPoll(sandbox, alex, kit);
    expect(rejected.answers[0]!.voteStatus).toBe('rejected');
    expect(rejected.userVote).toBe(true);
    expect(rejected.usedTokenCount).toBe(before.usedTokenCount);
    expect(rejected.statistics.uniqueVoteCount).toBe(before.statistics.uniqueVoteCount);
    expect((await voteRequest(sandbox, alex, kit, answers[1]!.id)).status).toBe(201);
    clock.advance(1000);
    const again = await readUserPoll(sandbox, alex, kit);
    expect(again.answers.map((answer) => answer.voteStatus)).toEqual([null, 'accepted', null]);
    expect(again.usedTokenCount).toBe(before.usedTokenCount + 12);
  });

  it('always ends the seeded fan rex’s votes rejected', async () => {
    const { sandbox, clock } = frozenSandbox(1000);
    const rex = fanToken(sandbox, 'rex');
    const answerId = sandbox.polls.find(kit)!.answers[0]!.id;
    expect((await voteRequest(sandbox, rex, kit, answerId)).status).toBe(201);
    clock.advance(1000);
    expect((await readUserPoll(sandbox, rex, kit)).answers[0]!.voteStatus).toBe('rejected');
  });

  it('lists a fresh vote in the fan’s history and in userVoted', async () => {
    const { sandbox } = frozenSandbox();
    const alex = fanToken(sandbox, 'alex');
    expect((await voteRequest(sandbox, alex, kit, sandbox.polls.find(kit)!.answers[0]!.id)).status).toBe(201);
    const history = await apiRequest(sandbox, '/polls/1.0.8/user/polls/history', alex);
    const ids = ((await history.json()) as { data: PollJson[] }).data.map((poll) => poll.id);
    expect(ids).toContain(kit);
    const publicView = await apiRequest(sandbox, `/polls/1.0.8/poll/${kit}`, applicationToken(sandbox));
    expect(((await publicView.json()) as { data: PollJson }).data).not.toHaveProperty('userVote');
  });
});
