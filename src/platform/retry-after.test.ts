import { describe, expect, it } from 'vitest';
import { errorFromFetchFailure, PlatformError } from './errors.ts';
import { parseNextAccessTime, parseRetryAfter, retryAtFrom } from './retry-after.ts';

const now = Date.UTC(2026, 8, 1, 12, 0, 0);

describe('retry instants', () => {
  it('reads Retry-After seconds against the injected clock', () => {
    expect(parseRetryAfter('60', now)?.getTime()).toBe(now + 60_000);
  });

  it('reads Retry-After as an HTTP-date', () => {
    expect(parseRetryAfter('Wed, 02 Sep 2026 00:00:00 GMT', now)?.toISOString()).toBe(
      '2026-09-02T00:00:00.000Z',
    );
  });

  it('ignores what it cannot read', () => {
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseNextAccessTime('2026-Foo-02 00:00:00+0000 UTC')).toBeUndefined();
    expect(parseNextAccessTime(42)).toBeUndefined();
  });

  it('reads the gateway’s nextAccessTime with its offset', () => {
    expect(parseNextAccessTime('2026-Sep-02 00:00:00+0000 UTC')?.toISOString()).toBe(
      '2026-09-02T00:00:00.000Z',
    );
    expect(parseNextAccessTime('2026-Sep-02 02:30:00+0230 X')?.toISOString()).toBe(
      '2026-09-02T00:00:00.000Z',
    );
  });

  it('prefers the header and falls back to the body', () => {
    expect(retryAtFrom('5', '2026-Sep-02 00:00:00+0000 UTC', now)?.getTime()).toBe(now + 5000);
    expect(retryAtFrom(null, '2026-Sep-02 00:00:00+0000 UTC', now)?.toISOString()).toBe(
      '2026-09-02T00:00:00.000Z',
    );
  });
});

describe('errorFromFetchFailure', () => {
  it('tells a timeout from a network failure and passes PlatformErrors through', () => {
    expect(errorFromFetchFailure(new DOMException('t', 'TimeoutError'), 'x').code).toBe('timeout');
    expect(errorFromFetchFailure(new TypeError('fetch failed'), 'x').code).toBe('network');
    const original = new PlatformError('throttled', 'x');
    expect(errorFromFetchFailure(original, 'y')).toBe(original);
  });
});
