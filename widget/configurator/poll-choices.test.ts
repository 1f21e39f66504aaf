import { describe, expect, it } from 'vitest';
import { clubsOf, filterChoices, type PollChoice } from './poll-choices.ts';

const choices: PollChoice[] = [
  { id: 'a', partnerId: 'r', partnerName: 'Riverside FC', question: 'Which away kit?', phase: 'open' },
  { id: 'b', partnerId: 'h', partnerName: 'Harbour United', question: 'Player of the month?', phase: 'open' },
  { id: 'c', partnerId: 'r', partnerName: 'Riverside FC', question: 'Which anthem?', phase: 'closed' },
];

describe('the configurator’s poll choices', () => {
  it('filters by club, phase and a word of the question or club, in any case, keeping the proxy’s order', () => {
    expect(filterChoices(choices, { partnerId: 'r', phase: '', search: '' }).map((c) => c.id)).toEqual([
      'a',
      'c',
    ]);
    expect(
      filterChoices(choices, { partnerId: '', phase: 'open', search: 'WHICH' }).map((c) => c.id),
    ).toEqual(['a']);
    expect(filterChoices(choices, { partnerId: '', phase: '', search: 'harbour' }).map((c) => c.id)).toEqual([
      'b',
    ]);
  });

  it('lists each club once, by name', () => {
    expect(clubsOf(choices)).toEqual([
      { id: 'h', name: 'Harbour United' },
      { id: 'r', name: 'Riverside FC' },
    ]);
  });
});
