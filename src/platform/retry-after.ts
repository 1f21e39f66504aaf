/**
 * When a throttled caller may try again: from `Retry-After` (seconds or an HTTP-date) or, failing that, from the
 * gateway's `nextAccessTime` (`2026-Sep-02 00:00:00+0000 UTC`). Undefined when neither can be read.
 */
export function retryAtFrom(
  retryAfterHeader: string | null | undefined,
  nextAccessTime: unknown,
  now: number,
): Date | undefined {
  return parseRetryAfter(retryAfterHeader, now) ?? parseNextAccessTime(nextAccessTime);
}

export function parseRetryAfter(value: string | null | undefined, now: number): Date | undefined {
  if (value === null || value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return new Date(now + Number(trimmed) * 1000);
  // Only the IMF-fixdate and the two obsolete HTTP-date forms carry a weekday or a GMT zone; Date.parse reads them.
  if (!/GMT|UTC|\d{1,2}:\d{2}:\d{2}/.test(trimmed)) return undefined;
  const instant = Date.parse(trimmed);
  return Number.isNaN(instant) ? undefined : new Date(instant);
}

const monthIndex: Record<string, number> = {
  jan: 0,
  feb: 1,
  mar: 2,
  apr: 3,
  may: 4,
  jun: 5,
  jul: 6,
  aug: 7,
  sep: 8,
  oct: 9,
  nov: 10,
  dec: 11,
};

/** WSO2's `nextAccessTime`: `yyyy-MMM-dd HH:mm:ss+ZZZZ` followed by a zone name. */
export function parseNextAccessTime(value: unknown): Date | undefined {
  if (typeof value !== 'string') return undefined;
  const match = /^(\d{4})-([A-Za-z]{3})-(\d{2}) (\d{2}):(\d{2}):(\d{2})([+-])(\d{2})(\d{2})/.exec(
    value.trim(),
  );
  if (!match) return undefined;
  const [, year, month, day, hour, minute, second, sign, offsetHours, offsetMinutes] = match;
  const monthNumber = monthIndex[(month ?? '').toLowerCase()];
  if (monthNumber === undefined) return undefined;
  const offsetMs = (Number(offsetHours) * 60 + Number(offsetMinutes)) * 60_000 * (sign === '-' ? -1 : 1);
  const utc = Date.UTC(Number(year), monthNumber, Number(day), Number(hour), Number(minute), Number(second));
  return new Date(utc - offsetMs);
}
