import { ProxyError } from './errors.ts';
import type { FileReader } from './file-reader.ts';

/** Beside the built widget: `{ "version": "<the widget's version>" }`, written by the widget build. */
export const widgetVersionFile = 'version.json';

/**
 * A path under `/widget/` with its version taken off: `v0.1.0/fan-polls.js` is `fan-polls.js` when the built widget is
 * 0.1.0. A proxy serves one build, so another version is a 404 that names the one it serves; unversioned paths pass.
 */
export async function unversionedPath(path: string, read: FileReader): Promise<string> {
  const versioned = /^v(\d+\.\d+\.\d+[0-9A-Za-z.+-]*)\/(.+)$/.exec(path);
  if (!versioned) return path;
  const served = await builtVersion(read);
  if (served === undefined || versioned[1] !== served)
    throw new ProxyError(
      'not_found',
      served === undefined
        ? 'This proxy serves no versioned widget.'
        : `This proxy serves the widget ${served}: /widget/v${served}/${versioned[2] ?? ''}`,
    );
  return versioned[2] ?? '';
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
