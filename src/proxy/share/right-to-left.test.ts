import { describe, expect, it } from 'vitest';
import { isRightToLeft, leftToRightOrder, rightToLeftUnits } from './right-to-left.ts';

describe('right-to-left text in the share image', () => {
  it('reads a text’s direction from its first letter', () => {
    expect(isRightToLeft('מי השחקן? Messi')).toBe(true);
    expect(isRightToLeft('2024: من هو')).toBe(true);
    expect(isRightToLeft('Messi או רונאלדו')).toBe(false);
    expect(isRightToLeft('2 - 1')).toBe(false);
  });

  it('keeps right-to-left words apart and a left-to-right run whole, in reading order', () => {
    expect(rightToLeftUnits('מי ינצח את Real Madrid 2 - 1 היום?')).toEqual([
      'מי',
      'ינצח',
      'את',
      'Real Madrid 2 - 1',
      'היום?',
    ]);
    expect(rightToLeftUnits('  من   هو ')).toEqual(['من', 'هو']);
  });

  it('reverses the right-to-left runs of a left-to-right text, for satori to lay out left to right', () => {
    expect(leftToRightOrder('Who wins: מכבי חיפה or Hapoel?')).toBe('Who wins: חיפה מכבי or Hapoel?');
    expect(leftToRightOrder('Hello مرحبا - بالعالم now')).toBe('Hello بالعالم - مرحبا now');
    expect(leftToRightOrder('Plain text, no change')).toBe('Plain text, no change');
  });
});
