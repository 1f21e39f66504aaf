import type { TrackingParameters } from '../../src/contracts/bridge-contract.ts';

/** The spec's conversion-tracking parameters: exactly these five, in this order, never anything else. */
export const trackingKeys = ['referrer', 'campaign', 'param1', 'param2', 'param3'] as const;
export type TrackingKey = (typeof trackingKeys)[number];

/** Longest value kept; longer ones are dropped, not cut, so a partner sees the problem in their reports. */
export const trackingValueMaxLength = 100;

// Control, format (bidi overrides), surrogate, private-use and unassigned characters are not printable.
const unprintable = /\p{C}/u;

/** A trimmed, printable value of at most `trackingValueMaxLength` characters, or undefined. */
export function cleanTrackingValue(value: string | null | undefined): string | undefined {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  if (trimmed === '' || trimmed.length > trackingValueMaxLength || unprintable.test(trimmed))
    return undefined;
  return trimmed;
}

/** Reads the five parameters from `primary` (the element's attributes), then `fallback` (the iframe URL). */
export function readTracking(
  primary: (key: TrackingKey) => string | null | undefined,
  fallback: (key: TrackingKey) => string | null | undefined = () => undefined,
): TrackingParameters {
  const tracking: Partial<Record<TrackingKey, string>> = {};
  for (const key of trackingKeys) {
    const value = cleanTrackingValue(primary(key)) ?? cleanTrackingValue(fallback(key));
    if (value !== undefined) tracking[key] = value;
  }
  return tracking;
}

/** Adds the valid parameters of `tracking` to `params`, in the spec's order. */
export function appendTracking(params: URLSearchParams, tracking: TrackingParameters): URLSearchParams {
  for (const key of trackingKeys) {
    const value = cleanTrackingValue(tracking[key]);
    if (value !== undefined) params.set(key, value);
  }
  return params;
}
