export interface BackoffSettings {
  /** Ceiling of the first retry's wait; doubles with each failure in a row. */
  readonly baseMs: number;
  /** Highest ceiling. */
  readonly capMs: number;
  /** Shortest wait: an error never makes the store read faster than a healthy open poll. */
  readonly minMs: number;
}

export const defaultBackoff: BackoffSettings = { baseMs: 5000, capMs: 120_000, minMs: 5000 };

/**
 * Exponential backoff with full jitter (a uniform wait between 0 and the ceiling, so many pages that failed together
 * do not come back together), never shorter than `minMs`. `failures` counts failures in a row, from 1.
 */
export function backoffDelay(
  failures: number,
  settings: BackoffSettings,
  random: () => number = Math.random,
): number {
  const exponent = Math.min(Math.max(0, failures - 1), 30);
  const ceiling = Math.min(settings.capMs, settings.baseMs * 2 ** exponent);
  const draw = Math.min(1, Math.max(0, random()));
  return Math.max(settings.minMs, Math.round(draw * ceiling));
}
