import { describe, expect, it } from 'vitest';
import { deepEqual } from './deep-equal.ts';
import { answerFixture, pollFixture } from './poll-fixture.ts';

describe('deepEqual', () => {
  it('compares polls by value, not identity', () => {
    expect(deepEqual(pollFixture(), structuredClone(pollFixture()))).toBe(true);
    expect(
      deepEqual(pollFixture(), pollFixture({ answers: [answerFixture({ totalVoteTokensUsed: 1 })] })),
    ).toBe(false);
  });

  it('sees order in arrays, ignores key order and undefined fields', () => {
    expect(deepEqual([1, 2], [2, 1])).toBe(false);
    expect(deepEqual({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(true);
    expect(deepEqual({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(deepEqual({ a: 1 }, { b: 1 })).toBe(false);
    expect(deepEqual([], {})).toBe(false);
    expect(deepEqual(null, {})).toBe(false);
    expect(deepEqual(Number.NaN, Number.NaN)).toBe(true);
  });
});
