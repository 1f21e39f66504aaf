import { describe, expect, it } from 'vitest';
import { defaultPace, nextRead } from './poll-pace.ts';
import { delayAfterAnswer, freshForMs } from './answer-freshness.ts';
import { fixtureTimes, pollFixture } from './poll-fixture.ts';

const headers = (fields: Record<string, string>) => new Headers(fields);

describe('the freshness of a proxy answer', () => {
  it('is what `s-maxage` leaves after `Age`, stale at or past it, and unknown without both', () => {
    const cache = 'public, max-age=0, must-revalidate, s-maxage=5';
    expect(freshForMs(headers({ 'cache-control': cache, age: '0' }))).toBe(5000);
    expect(freshForMs(headers({ 'cache-control': cache, age: '4' }))).toBe(1000);
    expect(freshForMs(headers({ 'cache-control': cache, age: '7' }))).toBe(-2000);
    const unknown: Record<string, string>[] = [
      { 'cache-control': cache },
      { age: '1' },
      { 'cache-control': cache, age: 'soon' },
    ];
    for (const fields of unknown) expect(freshForMs(headers(fields))).toBeNaN();
  });

  it('times the next read just before the copy is replaced, soon after a stale one, else at the pace', () => {
    expect(delayAfterAnswer(5000, 5000)).toBe(4400);
    expect(delayAfterAnswer(1000, 5000)).toBe(400);
    expect(delayAfterAnswer(-2000, 5000)).toBe(400);
    expect(delayAfterAnswer(Number.NaN, 5000)).toBe(5000);
    expect(delayAfterAnswer(undefined, 5000)).toBe(5000);
  });

  it('times an open poll from its answer, never past its close; the other phases keep their pace', () => {
    const open = fixtureTimes.openAt + 60_000;
    expect(nextRead(pollFixture(), open, defaultPace, 5000).at).toBe(open + 4400);
    expect(nextRead(pollFixture(), open, defaultPace).at).toBe(open + defaultPace.openMs);
    const closing = fixtureTimes.closeAt - 200;
    expect(nextRead(pollFixture(), closing, defaultPace, 5000).at).toBe(fixtureTimes.closeAt);
    const upcoming = fixtureTimes.openAt - 600_000;
    expect(nextRead(pollFixture(), upcoming, defaultPace, 5000).at).toBe(upcoming + defaultPace.upcomingMs);
  });
});
