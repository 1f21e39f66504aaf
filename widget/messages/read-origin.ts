import { isShortString } from './shape.ts';

/** An http(s) origin exactly as `URL` writes one (`https://polls.club.example`), else undefined. */
export function readOrigin(value: unknown): string | undefined {
  if (!isShortString(value, 200)) return undefined;
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value
      ? value
      : undefined;
  } catch {
    return undefined;
  }
}
