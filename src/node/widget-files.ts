// The built widget's files on disk, for the proxy's `/widget/` routes: read once each and kept (a deploy is a new
// process), never outside the folder.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

export type WidgetFiles = (relativePath: string) => Promise<Uint8Array | undefined>;

/**
 * The folder: `configured` (FAN_POLLS_WIDGET_DIR), else `dist/widget/` beside the running code, found from where
 * this module is (from source, `src/node/`; from the server build, one folder under `dist/`).
 */
export function defaultWidgetDir(configured: string | undefined): string {
  if (configured !== undefined && configured !== '')
    return configured.endsWith('/') ? configured : `${configured}/`;
  const built = new URL('../widget/', import.meta.url);
  const fromSource = new URL('../../dist/widget/', import.meta.url);
  return fileURLToPath(existsSync(built) ? built : fromSource);
}

export function widgetFilesIn(folder: string): WidgetFiles {
  const held = new Map<string, Promise<Uint8Array | undefined>>();
  return (relativePath) => {
    if (relativePath.split('/').some((part) => part === '' || part === '..' || part.startsWith('.'))) {
      return Promise.resolve(undefined);
    }
    let file = held.get(relativePath);
    if (file === undefined) {
      file = readFile(folder + relativePath).then(
        (bytes) => new Uint8Array(bytes),
        () => undefined,
      );
      held.set(relativePath, file);
      // A file missing now may be built later (npm start rebuilds): only found files are kept.
      void file.then((bytes) => {
        if (bytes === undefined) held.delete(relativePath);
      });
    }
    return file;
  };
}
