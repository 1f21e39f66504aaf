/**
 * The spec's conversion-tracking parameters and the one rule for their values, shared by the widget (attributes and
 * frame messages), the extension's page bridge, the proxy's sign-in route and the platform layer's authorize URL.
 */

/** Exactly these five, in this order, never anything else. */
export const trackingParameterNames = ['referrer', 'campaign', 'param1', 'param2', 'param3'] as const;
export type TrackingParameterName = (typeof trackingParameterNames)[number];

/** Tracking parameters a card carries into sign-in and every event, each a value `cleanTrackingValue` kept. */
export type TrackingParameters = { readonly [Name in TrackingParameterName]?: string };

/** Longest value kept; longer ones are dropped, not cut, so a partner sees the problem in their reports. */
export const trackingValueMaxLength = 100;

// Control, format (bidi overrides), surrogate, private-use and unassigned characters are not printable.
const unprintable = /\p{C}/u;

/** A trimmed, printable value of at most `trackingValueMaxLength` characters, or undefined. */
export function cleanTrackingValue(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed === '' || trimmed.length > trackingValueMaxLength || unprintable.test(trimmed)
    ? undefined
    : trimmed;
}

/** Where raw values come from: an element's attributes, a query string, a message's record. */
export type TrackingSource =
  ((name: TrackingParameterName) => unknown) | Readonly<Partial<Record<TrackingParameterName, unknown>>>;

/** The five parameters with the values `cleanTrackingValue` keeps, each from the first source that has one. */
export function cleanTracking(...sources: readonly TrackingSource[]): TrackingParameters {
  const tracking: { [Name in TrackingParameterName]?: string } = {};
  for (const name of trackingParameterNames) {
    for (const source of sources) {
      const value = cleanTrackingValue(typeof source === 'function' ? source(name) : source[name]);
      if (value === undefined) continue;
      tracking[name] = value;
      break;
    }
  }
  return tracking;
}

/** Adds the (already clean) values of `tracking` to `params`, in the spec's order. */
export function appendTracking(params: URLSearchParams, tracking: TrackingParameters): URLSearchParams {
  for (const name of trackingParameterNames) {
    const value = tracking[name];
    if (value) params.set(name, value);
  }
  return params;
}
