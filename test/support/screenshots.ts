import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const folder = fileURLToPath(new URL('../../dist/screenshots/', import.meta.url));

/**
 * Where a browser test saves a screenshot of a state (`dist/screenshots/`, not committed), to be looked at; `name` may
 * name a subfolder (`store/1-card.png`).
 */
export function screenshotPath(name: string): string {
  mkdirSync(dirname(folder + name), { recursive: true });
  return folder + name;
}
