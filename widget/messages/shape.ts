/** Small shape checks for messages that cross a frame or page border: untrusted until they pass. */
/** True when `value` has exactly these keys (no more; optional ones may be missing). */
export function hasOnlyKeys(
  value: Record<string, unknown>,
  required: readonly string[],
  optional: readonly string[] = [],
): boolean {
  const keys = Object.keys(value);
  return (
    required.every((key) => key in value) &&
    keys.every((key) => required.includes(key) || optional.includes(key))
  );
}

/** A non-empty string of at most `max` characters. */
export function isShortString(value: unknown, max = 200): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= max;
}
