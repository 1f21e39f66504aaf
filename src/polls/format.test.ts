import { describe, expect, it } from 'vitest';
import { countdownParts, formatCount, formatCountdown, formatPercent, pluralCategory } from './format.ts';

describe('formatPercent', () => {
  it('shows exactly the asked decimals, per locale', () => {
    expect(formatPercent(42.5, { locale: 'en-US', decimals: 1 })).toBe('42.5%');
    expect(formatPercent(42, { locale: 'en-US', decimals: 1 })).toBe('42.0%');
    expect(formatPercent(42.5, { locale: 'de-DE', decimals: 1 })).toBe('42,5\u00a0%');
    expect(formatPercent(100, { locale: 'en-US' })).toBe('100%');
  });

  it('shows every value the view can produce as it is, never rounded again', () => {
    for (const decimals of [0, 1, 2]) {
      for (let units = 0; units <= 100 * 10 ** decimals; units += 1) {
        const shown = units / 10 ** decimals;
        expect(formatPercent(shown, { locale: 'en-US', decimals })).toBe(`${shown.toFixed(decimals)}%`);
      }
    }
  });

  it('falls back to the default locale on a bad tag instead of throwing', () => {
    expect(() => formatPercent(10, { locale: 'not a locale!' })).not.toThrow();
  });
});

describe('formatCount', () => {
  it('groups digits per locale and can be compact', () => {
    expect(formatCount(12345, { locale: 'en-US' })).toBe('12,345');
    expect(formatCount(12345, { locale: 'de-DE' })).toBe('12.345');
    expect(formatCount(12345, { locale: 'en-US', compact: true })).toBe('12.3K');
    expect(formatCount(Number.NaN, { locale: 'en-US' })).toBe('0');
  });
});

describe('pluralCategory', () => {
  it('follows each locale’s plural rules: French counts 0 and 1 as one, English only 1', () => {
    expect([0, 1, 2].map((count) => pluralCategory(count, 'en'))).toEqual(['other', 'one', 'other']);
    expect([0, 1, 2].map((count) => pluralCategory(count, 'fr'))).toEqual(['one', 'one', 'other']);
  });
});

describe('countdown', () => {
  it('rounds up to the second and never goes below zero', () => {
    expect(countdownParts(1)).toEqual({ days: 0, hours: 0, minutes: 0, seconds: 1 });
    expect(countdownParts(-5000)).toEqual({ days: 0, hours: 0, minutes: 0, seconds: 0 });
    expect(countdownParts(90_061_000)).toEqual({ days: 1, hours: 1, minutes: 1, seconds: 1 });
  });

  it('counts in days and hours while days remain, and to the second only in the last hour', () => {
    expect(formatCountdown(245_000, { locale: 'en' })).toBe('4:05');
    expect(formatCountdown(3_723_000, { locale: 'en' })).toBe('1h 2m');
    expect(formatCountdown(4 * 86_400_000 + 23 * 3_600_000 + 57 * 60_000 + 46_000, { locale: 'en' })).toBe(
      '4d 23h',
    );
    expect(formatCountdown(2 * 86_400_000 + 3 * 3_600_000, { locale: 'fr' })).toBe('2j 3h');
  });
});
