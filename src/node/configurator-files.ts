// The built configurator on disk, for the proxy's `/configurator/` routes (read like the widget's files).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** `dist/configurator/` beside the running code: from source (`src/node/`) or from the server build (`dist/`). */
export function defaultConfiguratorDir(): string {
  const built = new URL('../configurator/', import.meta.url);
  const fromSource = new URL('../../dist/configurator/', import.meta.url);
  return fileURLToPath(existsSync(built) ? built : fromSource);
}
