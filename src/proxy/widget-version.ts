import { ProxyError } from './errors.ts';
import type { FileReader } from './file-reader.ts';

/** Beside the built widget: `{ "version": "<the widget's version>" }`, written by the widget build. */
const widgetVersionFile = 'version.json';

/**
 * A path under `/widget/` with its version taken off: `v0.1.0/fan-polls.js` is `fan-polls.js`. A snippet pinned to
 * any version of the major the proxy serves (the first number, 0 included: `v0.1.0` while it serves 0.2.0) gets the
 * current build's files, which are compatible within a major; the hashed chunks an older entry imports are kept
 * beside them by the widget build (`widget/build/widget-releases.ts`). Another major is a 404 that names the version
 * served; unversioned paths pass.
 */
export async function unversionedPath(path: string, read: FileReader): Promise<string> {
  const versioned = /^v(\d+)\.\d+\.\d+[0-9A-Za-z.+-]*\/(.+)$/.exec(path);
  if (!versioned) return path;
  const served = await builtVersion(read);
  const rest = versioned[2] ?? '';
  if (served === undefined || majorOf(served) !== versioned[1])
    throw new ProxyError(
      'not_found',
      served === undefined
        ? 'This proxy serves no versioned widget.'
        : `This proxy serves the widget ${served}: /widget/v${served}/${rest}`,
    );
  return rest;
}

function majorOf(version: string): string {
  return /^\d+/.exec(version)?.[0] ?? '';
}

/** The built widget's version, from its `version.json`; undefined when the build has none. */
export async function builtVersion(read: FileReader): Promise<string | undefined> {
  const bytes = await read(widgetVersionFile);
  if (bytes === undefined) return undefined;
  try {
    const { version } = JSON.parse(new TextDecoder().decode(bytes)) as { version?: unknown };
    return typeof version === 'string' ? version : undefined;
  } catch {
    return undefined;
  }
}
