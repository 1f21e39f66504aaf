import { describe, expect, it } from 'vitest';
import { fanViewOf } from './read-fan-view.ts';

describe('fanViewOf', () => {
  it('keeps userVote and each answer’s id and voteStatus, field by field', () => {
    const poll = {
      id: 'p1',
      userVote: true,
      question: '<img src=x>',
      answers: [
        { id: 'a1', voteStatus: 'pending', answer: 'Ada', extra: 'dropped' },
        { id: 'a2' },
        { id: 7, voteStatus: 'accepted' },
        'not an answer',
      ],
    };
    expect(fanViewOf(poll)).toEqual({
      userVote: true,
      answers: [{ id: 'a1', voteStatus: 'pending' }, { id: 'a2' }],
    });
  });

  it.each([undefined, null, 'poll', { userVote: 'yes', answers: 'a1' }])('reads %j as not voted', (poll) => {
    expect(fanViewOf(poll)).toEqual({ userVote: false, answers: [] });
  });
});
