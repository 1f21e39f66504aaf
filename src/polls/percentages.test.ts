import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { largestRemainderPercentages } from './percentages.ts';

/** The shown numbers as whole units of the last digit, so the sum is checked without floating-point noise. */
const toUnits = (values: readonly number[], decimals: number) =>
  values.map((value) => Math.round(value * 10 ** decimals));

describe('largestRemainderPercentages', () => {
  it('gives the leftover point to the largest remainder', () => {
    // 1/3 each: 33.33.. -> 33, 33, 33 and one point left, which goes to the first (equal remainders).
    expect(largestRemainderPercentages([1, 1, 1])).toEqual([34, 33, 33]);
    // 2/3 and 1/3 at one decimal: 66.66.. and 33.33..; the larger remainder (.66) takes the unit.
    expect(largestRemainderPercentages([2, 1], 1)).toEqual([66.7, 33.3]);
  });

  it('weights by tokens, not by answer count', () => {
    expect(largestRemainderPercentages([750, 250])).toEqual([75, 25]);
  });

  it('is all zeros when nobody voted', () => {
    expect(largestRemainderPercentages([0, 0, 0], 2)).toEqual([0, 0, 0]);
    expect(largestRemainderPercentages([])).toEqual([]);
  });

  it('counts negative and non-finite weights as zero', () => {
    expect(largestRemainderPercentages([-5, 10, Number.NaN, Number.POSITIVE_INFINITY])).toEqual([
      0, 100, 0, 0,
    ]);
  });

  it('never hands a leftover unit to an answer without votes', () => {
    expect(largestRemainderPercentages([1, 0, 1, 1])).toEqual([34, 0, 33, 33]);
  });

  it('keeps precision between 0 and 4 decimals', () => {
    expect(largestRemainderPercentages([1, 2], -3)).toEqual([33, 67]);
    expect(largestRemainderPercentages([1, 2], 2.9)).toEqual([33.33, 66.67]);
  });

  const weights = fc.array(
    fc.oneof(fc.nat(), fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), fc.nat({ max: 3 })),
    { minLength: 1, maxLength: 10 },
  );
  const decimals = fc.integer({ min: 0, max: 2 });

  it('adds up to exactly 100 at the shown precision whenever anyone voted (property)', () => {
    fc.assert(
      fc.property(weights, decimals, (tokens, places) => {
        fc.pre(tokens.some((token) => token > 0));
        const units = toUnits(largestRemainderPercentages(tokens, places), places);
        expect(units.reduce((sum, unit) => sum + unit, 0)).toBe(100 * 10 ** places);
      }),
      { numRuns: 1000 },
    );
  });

  it('never goes negative, never exceeds 100, and is shown at the asked precision (property)', () => {
    fc.assert(
      fc.property(weights, decimals, (tokens, places) => {
        const shown = largestRemainderPercentages(tokens, places);
        expect(shown).toHaveLength(tokens.length);
        for (const value of shown) {
          expect(value).toBeGreaterThanOrEqual(0);
          expect(value).toBeLessThanOrEqual(100);
          expect(Math.abs(value * 10 ** places - Math.round(value * 10 ** places))).toBeLessThan(1e-6);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('stays within one shown unit of the exact share (property)', () => {
    fc.assert(
      fc.property(weights, decimals, (tokens, places) => {
        const total = tokens.reduce((sum, token) => sum + token, 0);
        fc.pre(total > 0);
        const shown = largestRemainderPercentages(tokens, places);
        tokens.forEach((token, index) => {
          expect(Math.abs((shown[index] ?? 0) - (token / total) * 100)).toBeLessThan(10 ** -places + 1e-9);
        });
      }),
      { numRuns: 1000 },
    );
  });

  it('is all zeros when no tokens were used (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10 }), decimals, (count, places) => {
        expect(largestRemainderPercentages(Array<number>(count).fill(0), places)).toEqual(
          Array<number>(count).fill(0),
        );
      }),
      { numRuns: 1000 },
    );
  });
});
