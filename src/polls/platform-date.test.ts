import { describe, expect, it } from 'vitest';
import { parsePlatformDate } from './platform-date.ts';

describe('parsePlatformDate', () => {
  it('reads ISO 8601 with an offset, with or without the colon', () => {
    expect(parsePlatformDate('2023-07-27T14:24:09+00:00')).toBe(Date.UTC(2023, 6, 27, 14, 24, 9));
    expect(parsePlatformDate('2023-07-27T16:24:09+0200')).toBe(Date.UTC(2023, 6, 27, 14, 24, 9));
    expect(parsePlatformDate('2023-07-27T14:24:09.5Z')).toBe(Date.UTC(2023, 6, 27, 14, 24, 9, 500));
  });

  it('reads a date-time without a zone as UTC, whatever the local zone', () => {
    expect(parsePlatformDate('2022-03-29T12:30:33')).toBe(Date.UTC(2022, 2, 29, 12, 30, 33));
    expect(parsePlatformDate('2022-03-29')).toBe(Date.UTC(2022, 2, 29));
  });

  it('refuses what is not a date', () => {
    for (const value of ['', 'tomorrow', '2022-13-45T99:99:99Z', '1690467849', undefined, null]) {
      expect(parsePlatformDate(value)).toBeUndefined();
    }
  });
});
