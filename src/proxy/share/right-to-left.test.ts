import { describe, expect, it } from 'vitest';
import { isRightToLeft, rightToLeftUnits } from './right-to-left.ts';

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
});
