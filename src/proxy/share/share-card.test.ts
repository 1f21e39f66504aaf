import { describe, expect, it } from 'vitest';
import { answerFixture, fixtureTimes, pollFixture } from '../../polls/poll-fixture.ts';
import { clampText, initialsOf, shareCardOf, shareDescription, sharesShown } from './share-card.ts';

const poll = pollFixture({
  answers: [
    answerFixture({ id: 'a1', answer: 'Ada', totalVoteTokensUsed: 300 }),
    answerFixture({ id: 'a2', answer: 'Bea', totalVoteTokensUsed: 100 }),
  ],
});

describe('the share card', () => {
  it('shows an open poll’s shares and its leader to a stranger by default, as the card does', () => {
    const card = shareCardOf(poll, fixtureTimes.whileOpen, undefined);
    expect(card.resultsShown).toBe(true);
    expect(card.answers.map((answer) => answer.percentage)).toEqual([75, 25]);
    expect(card.leading).toEqual({ text: 'Ada', percentage: 75 });
    expect(shareDescription(card)).toBe('Riverside FC fan poll · Open: vote now · Leading: Ada (75%)');
  });

  it('hides them where the link’s results setting does, until the poll closes', () => {
    const hidden = shareCardOf(poll, fixtureTimes.whileOpen, 'after-vote');
    expect(hidden.resultsShown).toBe(false);
    expect(hidden.answers.every((answer) => answer.percentage === undefined)).toBe(true);
    expect(hidden.leading).toBeUndefined();
    expect(shareCardOf(poll, fixtureTimes.afterClose, 'after-close').resultsShown).toBe(true);
    expect(sharesShown('upcoming', undefined)).toBe(false);
    expect(sharesShown('cancelled', undefined)).toBe(false);
    expect(sharesShown('unknown', undefined)).toBe(false);
  });

  it('cuts long text at a code point with an ellipsis, and names the club by its initials', () => {
    const long = clampText('😀'.repeat(300), 10);
    expect(Array.from(long)).toHaveLength(10);
    expect(long.endsWith('😀…')).toBe(true);
    expect(clampText('  a \n b  ')).toBe('a b');
    expect(clampText('Who \u202Eniw\u202C wins?')).toBe('Who niw wins?');
    expect(initialsOf('Riverside FC')).toBe('RF');
    expect(initialsOf('Ærø Fodbold Klub')).toBe('ÆF');
    expect(initialsOf('   ')).toBe('?');
  });
});
