/** ISO 8601 date or date-time, optional seconds and fraction, optional zone (`Z`, `+00:00`, `+0000`). */
const isoDateTime =
  /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2})(?::(\d{2})(\.\d{1,9})?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * Milliseconds since the epoch for a platform date string, or undefined when it is missing or not a date. A date-time
 * without a zone (the platform's filter examples have none) is read as UTC, so every visitor sees the same instant.
 */
export function parsePlatformDate(value: string | undefined | null): number | undefined {
  if (typeof value !== 'string') return undefined;
  const match = isoDateTime.exec(value.trim());
  if (match === null) return undefined;
  const [, day, time = '00:00', seconds = '00', fraction = '', zone = 'Z'] = match;
  const offset = zone.toUpperCase() === 'Z' ? 'Z' : `${zone.slice(0, 3)}:${zone.slice(-2)}`;
  const milliseconds = fraction === '' ? '' : fraction.slice(0, 4).padEnd(4, '0');
  const ms = Date.parse(`${day}T${time}:${seconds}${milliseconds}${offset}`);
  return Number.isNaN(ms) ? undefined : ms;
}
