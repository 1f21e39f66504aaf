import { describe, expect, it } from 'vitest';
import { appendTracking, cleanTracking, cleanTrackingValue, trackingValueMaxLength } from './tracking.ts';

describe('tracking parameters', () => {
  it('keeps printable values, trimmed', () => {
    expect(cleanTrackingValue('  partner-site ')).toBe('partner-site');
    expect(cleanTrackingValue('Café Ünited')).toBe('Café Ünited');
  });

  it('drops empty, too long and unprintable values', () => {
    expect(cleanTrackingValue('')).toBeUndefined();
    expect(cleanTrackingValue(null)).toBeUndefined();
    expect(cleanTrackingValue(42)).toBeUndefined();
    expect(cleanTrackingValue('x'.repeat(trackingValueMaxLength))).toHaveLength(trackingValueMaxLength);
    expect(cleanTrackingValue('x'.repeat(trackingValueMaxLength + 1))).toBeUndefined();
    expect(cleanTrackingValue('a\nb')).toBeUndefined();
    expect(cleanTrackingValue('a\u202Eb')).toBeUndefined();
    expect(cleanTrackingValue('a\u0000')).toBeUndefined();
  });

  it('reads exactly the five keys, the attribute before the URL', () => {
    const attributes: Record<string, string> = { referrer: 'site', campaign: 'c1', other: 'x' };
    const url: Record<string, string> = { campaign: 'c2', param3: 'iframe', token: 'secret' };
    expect(
      cleanTracking(
        (key) => attributes[key],
        (key) => url[key],
      ),
    ).toEqual({ referrer: 'site', campaign: 'c1', param3: 'iframe' });
  });

  it('falls back to the URL when the attribute is invalid', () => {
    expect(
      cleanTracking(
        () => 'bad\u0007',
        (key) => (key === 'param1' ? 'web' : null),
      ),
    ).toEqual({ param1: 'web' });
  });

  it('cleans a record as well as a reader, ignoring other keys', () => {
    expect(cleanTracking({ referrer: ' r ', campaign: 7, param1: '', other: 'x' } as never)).toEqual({
      referrer: 'r',
    });
  });

  it('appends the values it is given, in the spec’s order, skipping empty ones', () => {
    const params = appendTracking(new URLSearchParams('origin=x'), {
      param2: 'p',
      referrer: 'r',
      campaign: '',
    });
    expect(params.toString()).toBe('origin=x&referrer=r&param2=p');
  });
});
