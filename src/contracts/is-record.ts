/** A plain object (not null, not an array): the first check on anything parsed from JSON or a message. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
