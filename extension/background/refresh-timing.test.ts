import { describe, expect, it } from 'vitest';
import { isExpired, isRefreshDue, refreshDueAt, refreshMarginMs } from './refresh-timing.ts';

describe('refresh timing', () => {
  it('scales the margin with the lifetime, within 5 s and 2 min, never past half the lifetime', () => {
    expect(refreshMarginMs(3600_000)).toBe(120_000);
    expect(refreshMarginMs(300_000)).toBe(60_000);
    expect(refreshMarginMs(20_000)).toBe(5_000);
    expect(refreshMarginMs(6_000)).toBe(3_000);
  });

  it('has no due time when the platform gave no expiry', () => {
    expect(refreshDueAt({ accessToken: 'a', issuedAt: 0 })).toBeUndefined();
    expect(isRefreshDue({ accessToken: 'a', issuedAt: 0 }, Number.MAX_SAFE_INTEGER)).toBe(false);
  });

  it('is due before it expires', () => {
    const grant = { accessToken: 'a', issuedAt: 0, expiresAt: 60_000 };
    expect(isRefreshDue(grant, 47_999)).toBe(false);
    expect(isRefreshDue(grant, 48_000)).toBe(true);
    expect(isExpired(grant, 59_999)).toBe(false);
    expect(isExpired(grant, 60_000)).toBe(true);
  });
});
