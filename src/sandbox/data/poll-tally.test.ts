import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fractionString, percentages } from './poll-tally.ts';

describe('percentages', () => {
  it('add up to exactly 100 with two decimals, and stay within one hundredth of the exact share', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(1_000_000), { minLength: 2, maxLength: 6 }), (values) => {
        const total = values.reduce((sum, value) => sum + value, 0);
        const shares = percentages(values, 2);
        for (const share of shares) expect(share).toMatch(/^\d{1,3}\.\d{2}$/);
        const hundredths = shares.map((share) => Math.round(Number(share) * 100));
        expect(hundredths.reduce((sum, value) => sum + value, 0)).toBe(total > 0 ? 10_000 : 0);
        values.forEach((value, index) => {
          const exact = total > 0 ? (value * 10_000) / total : 0;
          expect(Math.abs(hundredths[index]! - exact)).toBeLessThan(1);
        });
      }),
    );
  });

  it('gives thirds as 33.34, 33.33, 33.33', () => {
    expect(percentages([1, 1, 1], 2)).toEqual(['33.34', '33.33', '33.33']);
  });
});

describe('fractionString', () => {
  it('writes fractions as the platform does', () => {
    expect(fractionString(0.2, 4)).toBe('0.2');
    expect(fractionString(0.15344, 4)).toBe('0.1534');
    expect(fractionString(0, 4)).toBe('0');
    expect(fractionString(0.00001, 4)).toBe('0');
  });
});
