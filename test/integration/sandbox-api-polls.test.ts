import { describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/sandbox/sandbox.ts';
import { SandboxClock } from '../../src/sandbox/clock.ts';
import { apiRequest, applicationToken, fanToken } from '../../src/sandbox/test-kit.ts';
import { seededPollId } from '../../src/sandbox/data/seed-polls.ts';

type Json = Record<string, unknown>;
const isoWithOffset = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/;
const decimal = /^\d+(\.\d+)?$/;

async function listAll(sandbox: Sandbox, token: string, path = '/polls/1.0.8/polls'): Promise<Json[]> {
  const response = await apiRequest(sandbox, `${path}?limit=100`, token);
  expect(response.status).toBe(200);
  const body = (await response.json()) as { data: Json[] };
  expect(Array.isArray(body.data)).toBe(true);
  return body.data;
}

describe('sandbox poll JSON', () => {
  it('carries every field of the Poll, PartnerImage and Answer tables with the platform types', async () => {
    const sandbox = createSandbox();
    const polls = await listAll(sandbox, applicationToken(sandbox));
    expect(polls.length).toBeGreaterThanOrEqual(12);
    for (const poll of polls) {
      expect(Object.keys(poll)).toEqual([
        'id',
        'partnerId',
        'partnerName',
        'partnerImages',
        'question',
        'openAt',
        'publicationDate',
        'closeAt',
        'disclosedAt',
        'type',
        'isBound',
        'isQuorumReached',
        'quorum',
        'currentQuorumPercentage',
        'usedTokenCount',
        'tokenLimit',
        'status',
        'information',
        'answers',
        'statistics',
        'blockchainAddress',
      ]);
      for (const field of ['openAt', 'publicationDate', 'closeAt', 'disclosedAt'])
        expect(poll[field]).toMatch(isoWithOffset);
      expect(poll.quorum).toMatch(decimal);
      expect(Number(poll.quorum)).toBeLessThan(1);
      expect(poll.currentQuorumPercentage).toMatch(decimal);
      expect(Number.isInteger(poll.usedTokenCount)).toBe(true);
      expect(Number.isInteger(poll.tokenLimit)).toBe(true);
      expect(poll.blockchainAddress).toMatch(/^0x[0-9a-f]{40}$/);
      expect(poll.type).toBe('engagement');
      for (const image of poll.partnerImages as Json[]) {
        expect(Object.keys(image)).toEqual(['url', 'type', 'format', 'width', 'height']);
        expect(image.url).toMatch(/^http:\/\/localhost\/assets\/clubs\/[a-z]+\.svg\?version=\d+$/);
        expect(typeof image.width).toBe('string');
        expect(typeof image.height).toBe('string');
      }
      const answers = poll.answers as Json[];
      expect(answers.length).toBeGreaterThanOrEqual(2);
      expect(answers.length).toBeLessThanOrEqual(6);
      for (const answer of answers) {
        expect(Object.keys(answer)).toEqual([
          'id',
          'answer',
          'votePercentage',
          'totalVoteTokensUsed',
          'statistics',
        ]);
        expect(answer.votePercentage).toMatch(/^\d{1,3}\.\d{2}$/);
      }
      const used = answers.reduce((sum, answer) => sum + (answer.totalVoteTokensUsed as number), 0);
      expect(poll.usedTokenCount).toBe(used);
      const shares = answers.reduce(
        (sum, answer) => sum + Math.round(Number(answer.votePercentage) * 100),
        0,
      );
      expect(shares).toBe(used > 0 ? 10_000 : 0);
      const voters = answers.reduce(
        (sum, a) => sum + (a.statistics as { uniqueAnswerVoteCount: number }).uniqueAnswerVoteCount,
        0,
      );
      expect(poll.statistics).toEqual({ uniqueVoteCount: voters });
      expect(poll.isQuorumReached).toBe(
        used > 0 && Number(poll.currentQuorumPercentage) >= Number(poll.quorum),
      );
    }
  });

  it('seeds every phase, bound and not, quorum reached and not', async () => {
    const sandbox = createSandbox();
    const polls = await listAll(sandbox, applicationToken(sandbox));
    expect(new Set(polls.map((poll) => poll.status))).toEqual(
      new Set(['scheduled', 'open', 'closed', 'disclosed', 'cancelled']),
    );
    expect(new Set(polls.map((poll) => poll.isBound))).toEqual(new Set([true, false]));
    expect(new Set(polls.map((poll) => poll.isQuorumReached))).toEqual(new Set([true, false]));
    expect(new Set(polls.map((poll) => poll.partnerId)).size).toBe(3);
  });

  it('derives the image origin from the request URL', async () => {
    const sandbox = createSandbox();
    const response = await sandbox.api.request(
      'http://api.partner.test:8443/polls/1.0.8/poll/' + seededPollId('riverside-away-kit'),
      {
        headers: { Authorization: `Bearer ${applicationToken(sandbox)}` },
      },
    );
    const { data } = (await response.json()) as { data: { partnerImages: { url: string }[] } };
    expect(data.partnerImages[0]!.url).toMatch(
      /^http:\/\/api\.partner\.test:8443\/assets\/clubs\/riverside\.svg\?version=\d+$/,
    );
  });

  it('adds userVote and per-answer voteStatus in user context and leaves out type', async () => {
    const sandbox = createSandbox();
    const polls = await listAll(sandbox, fanToken(sandbox, 'sam'), '/polls/1.0.8/user/polls');
    for (const poll of polls) {
      expect(poll).not.toHaveProperty('type');
      expect(typeof poll.userVote).toBe('boolean');
      for (const answer of poll.answers as Json[]) expect(answer).toHaveProperty('voteStatus');
    }
    const armband = polls.find((poll) => poll.id === seededPollId('riverside-armband-design'))!;
    expect(armband.userVote).toBe(true);
    expect((armband.answers as Json[]).map((answer) => answer.voteStatus)).toEqual([null, 'accepted']);
    const single = await apiRequest(
      sandbox,
      `/polls/1.0.8/user/poll/${seededPollId('riverside-away-kit')}`,
      fanToken(sandbox, 'sam'),
    );
    const { data } = (await single.json()) as { data: Json };
    expect(data.userVote).toBe(false);
    expect(data).not.toHaveProperty('type');
  });

  it('reads one poll, and answers an unknown, malformed or unpublished id with 404 Entity not found', async () => {
    const sandbox = createSandbox();
    const token = applicationToken(sandbox);
    const id = seededPollId('northgate-walkout-song');
    const found = await apiRequest(sandbox, `/polls/1.0.8/poll/${id}`, token);
    expect(((await found.json()) as { data: Json }).data.id).toBe(id);
    for (const missing of [
      '00000000-0000-4000-8000-000000000000',
      'not-a-uuid',
      seededPollId('northgate-stadium-naming'),
    ]) {
      const response = await apiRequest(sandbox, `/polls/1.0.8/poll/${missing}`, token);
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ code: '404', message: 'Entity not found' });
    }
  });

  it('lists an unpublished poll once the clock reaches its publication date', async () => {
    const clock = new SandboxClock();
    const sandbox = createSandbox({ clock });
    const hidden = seededPollId('northgate-stadium-naming');
    expect((await listAll(sandbox, applicationToken(sandbox))).map((poll) => poll.id)).not.toContain(hidden);
    clock.advance(4 * 24 * 3_600_000);
    expect((await listAll(sandbox, applicationToken(sandbox))).map((poll) => poll.id)).toContain(hidden);
  });

  it('moves a poll through its phases as the clock moves', async () => {
    const clock = new SandboxClock();
    clock.freeze();
    const sandbox = createSandbox({ clock });
    const id = seededPollId('riverside-preseason-destination');
    const status = async (): Promise<unknown> =>
      (
        (await (await apiRequest(sandbox, `/polls/1.0.8/poll/${id}`, applicationToken(sandbox))).json()) as {
          data: Json;
        }
      ).data.status;
    expect(await status()).toBe('scheduled');
    clock.advance(3 * 24 * 3_600_000);
    expect(await status()).toBe('open');
    clock.advance(6.5 * 24 * 3_600_000);
    expect(await status()).toBe('closed');
    clock.advance(24 * 3_600_000);
    expect(await status()).toBe('disclosed');
  });
});
