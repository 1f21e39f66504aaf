import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { backoffDelay, defaultBackoff } from './backoff.ts';

describe('backoffDelay', () => {
  it('doubles the ceiling per failure up to the cap (draw of 1)', () => {
    const delays = [1, 2, 3, 4, 5, 6, 7, 40].map((failures) =>
      backoffDelay(failures, defaultBackoff, () => 1),
    );
    expect(delays).toEqual([5000, 10_000, 20_000, 40_000, 80_000, 120_000, 120_000, 120_000]);
  });

  it('is a uniform share of the ceiling, never under the floor', () => {
    expect(backoffDelay(4, defaultBackoff, () => 0.5)).toBe(20_000);
    expect(backoffDelay(4, defaultBackoff, () => 0)).toBe(5000);
  });

  it('stays between the floor and the cap for any failure count and draw (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -5, max: 10_000 }),
        fc.double({ min: -1, max: 2, noNaN: true }),
        (failures, draw) => {
          const delay = backoffDelay(failures, defaultBackoff, () => draw);
          expect(delay).toBeGreaterThanOrEqual(defaultBackoff.minMs);
          expect(delay).toBeLessThanOrEqual(defaultBackoff.capMs);
        },
      ),
      { numRuns: 1000 },
    );
  });
});
