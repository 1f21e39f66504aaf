import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const folder = fileURLToPath(new URL('../../dist/screenshots/', import.meta.url));

/** Where a browser test saves a screenshot of a state (`dist/screenshots/`, not committed), to be looked at. */
export function screenshotPath(name: string): string {
  mkdirSync(folder, { recursive: true });
  return folder + name;
}
