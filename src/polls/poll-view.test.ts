import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { viewPoll, viewQuorum } from './poll-view.ts';
import { answerFixture, fixtureTimes as t, pollFixture } from './poll-fixture.ts';

const votes = (id: string, tokens: number, voters = 1) =>
  answerFixture({
    id,
    answer: id.toUpperCase(),
    totalVoteTokensUsed: tokens,
    statistics: { uniqueAnswerVoteCount: voters },
  });

describe('viewPoll', () => {
  it('shows token-weighted percentages that add up to 100 and marks the single leader', () => {
    const poll = pollFixture({ answers: [votes('a', 1), votes('b', 1), votes('c', 2, 7)] });
    const view = viewPoll(poll, t.whileOpen, { decimals: 1 });
    expect(view.answers.map((answer) => answer.percentage)).toEqual([25, 25, 50]);
    expect(view.leadingAnswerId).toBe('c');
    expect(view.answers.map((answer) => answer.isLeading)).toEqual([false, false, true]);
    expect(view.answers[2]).toMatchObject({ id: 'c', text: 'C', tokens: 2, uniqueVotes: 7 });
  });

  it('names no leader on a tie for first, nor when nobody voted', () => {
    const tie = viewPoll(
      pollFixture({ answers: [votes('a', 5), votes('b', 5), votes('c', 1)] }),
      t.whileOpen,
    );
    expect(tie.leadingAnswerId).toBeUndefined();
    expect(tie.answers.some((answer) => answer.isLeading)).toBe(false);
    const empty = viewPoll(pollFixture(), t.whileOpen);
    expect(empty.leadingAnswerId).toBeUndefined();
    expect(empty.answers.map((answer) => answer.percentage)).toEqual([0, 0]);
  });

  it('uses tokens, not the platform votePercentage string', () => {
    const poll = pollFixture({
      answers: [
        { ...votes('a', 3), votePercentage: '10' },
        { ...votes('b', 1), votePercentage: '90' },
      ],
    });
    expect(viewPoll(poll, t.whileOpen).answers.map((answer) => answer.percentage)).toEqual([75, 25]);
  });

  it('derives phase and times, and keeps the status as sent', () => {
    const poll = pollFixture({ status: 'something-new' });
    expect(viewPoll(poll, t.beforeOpen)).toMatchObject({
      phase: 'upcoming',
      opensInMs: 1_800_000,
      status: 'something-new',
    });
    const open = viewPoll(poll, t.whileOpen);
    expect(open).toMatchObject({ phase: 'open', closesInMs: 3_600_000 });
    expect(open.opensInMs).toBeUndefined();
    expect(viewPoll(pollFixture({ status: 'cancelled' }), t.whileOpen).phase).toBe('cancelled');
  });

  it('passes counts and the platform texts through as they are (rendering is the card’s job)', () => {
    const poll = pollFixture({
      question: '<img src=x onerror=alert(1)>',
      information: 'Binding result',
      isBound: true,
      usedTokenCount: 42,
      tokenLimit: 100,
      statistics: { uniqueVoteCount: 9 },
    });
    expect(viewPoll(poll, t.whileOpen)).toMatchObject({
      question: '<img src=x onerror=alert(1)>',
      information: 'Binding result',
      isBound: true,
      usedTokens: 42,
      tokenLimit: 100,
      uniqueVotes: 9,
      partnerName: 'Riverside FC',
    });
  });

  it('keeps only a safe logo', () => {
    const safe = pollFixture({
      partnerImages: [{ url: 'https://cdn.example/l.png', type: 'png', format: 'desktop' }],
    });
    expect(viewPoll(safe, t.whileOpen).logoUrl).toBe('https://cdn.example/l.png');
    const unsafe = pollFixture({ partnerImages: [{ url: 'http://cdn.example/l.png' }] });
    expect('logoUrl' in viewPoll(unsafe, t.whileOpen)).toBe(false);
  });

  it('shows the fan’s vote in user context only', () => {
    expect(viewPoll(pollFixture(), t.whileOpen).fanVote).toBeUndefined();
    expect(viewPoll(pollFixture({ userVote: false }), t.whileOpen).fanVote).toEqual({ voted: false });
    const voted = pollFixture({
      userVote: true,
      answers: [votes('a', 1), { ...votes('b', 2), voteStatus: 'rejected' }],
    });
    const view = viewPoll(voted, t.whileOpen);
    expect(view.fanVote).toEqual({ voted: true, answerId: 'b', voteStatus: 'rejected' });
    expect(view.answers[1]?.voteStatus).toBe('rejected');
    expect('voteStatus' in (view.answers[0] ?? {})).toBe(false);
  });

  it('adds up to 100 and never goes negative for arbitrary token counts (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -10, max: 1_000_000_000 }), { minLength: 1, maxLength: 10 }),
        fc.integer({ min: 0, max: 2 }),
        (tokens, decimals) => {
          const poll = pollFixture({ answers: tokens.map((count, index) => votes(`a${index}`, count)) });
          const shown = viewPoll(poll, t.whileOpen, { decimals }).answers.map((answer) => answer.percentage);
          const units = shown.map((value) => Math.round(value * 10 ** decimals));
          expect(units.every((unit) => unit >= 0)).toBe(true);
          const anyVotes = tokens.some((count) => count > 0);
          expect(units.reduce((sum, unit) => sum + unit, 0)).toBe(anyVotes ? 100 * 10 ** decimals : 0);
        },
      ),
      { numRuns: 1000 },
    );
  });
});

describe('viewQuorum', () => {
  it('reads the fraction strings and measures progress against the required fraction', () => {
    expect(viewQuorum({ quorum: '0.2', currentQuorumPercentage: '0.05', isQuorumReached: false })).toEqual({
      required: 0.2,
      current: 0.05,
      reached: false,
      progress: 0.25,
    });
  });

  it('says reached only when the platform does, whatever the numbers, and clamps progress to 0..1', () => {
    expect(
      viewQuorum({ quorum: '0.2', currentQuorumPercentage: '0.5', isQuorumReached: false }),
    ).toMatchObject({ reached: false, progress: 1 });
    expect(
      viewQuorum({ quorum: '0.2', currentQuorumPercentage: '0.1', isQuorumReached: true }),
    ).toMatchObject({ reached: true, progress: 1 });
    expect(
      viewQuorum({ quorum: '0.2', currentQuorumPercentage: '-3', isQuorumReached: false }).progress,
    ).toBe(0);
  });

  it('shows a required quorum of 0 with no vote as the platform does: not reached, an empty bar', () => {
    expect(viewQuorum({ quorum: '0', currentQuorumPercentage: '0', isQuorumReached: false })).toEqual({
      required: 0,
      current: 0,
      reached: false,
      progress: 0,
    });
    expect(viewQuorum({ quorum: 'n/a', currentQuorumPercentage: '', isQuorumReached: true })).toMatchObject({
      reached: true,
      progress: 1,
    });
  });
});
