import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';

/** The part of web-ext's programmatic API used here (web-ext ships no types). */
interface WebExt {
  readonly cmd: {
    build(
      params: { sourceDir: string; artifactsDir: string; filename: string; overwriteDest: boolean },
      options: { showReadyMessage: boolean },
    ): Promise<{ extensionPath: string }>;
  };
}

/**
 * Zips a built extension for the stores with `web-ext build`, the manifest rewritten by `storeManifest` in the zip
 * only: web-ext zips a folder as it is, so it packs a copy and the build folder keeps its development manifest.
 */
export async function zipForStore(
  folder: string,
  zipPath: string,
  storeManifest: (text: string) => string,
): Promise<void> {
  const copy = await mkdtemp(join(tmpdir(), 'fan-polls-store-zip-'));
  try {
    await cp(folder, copy, { recursive: true });
    const manifestPath = join(copy, 'manifest.json');
    await writeFile(manifestPath, storeManifest(await readFile(manifestPath, 'utf8')));
    // A specifier typed as a plain string keeps TypeScript from looking for web-ext's missing types.
    const webExtModule: string = 'web-ext';
    const { cmd } = (await import(webExtModule)) as WebExt;
    await cmd.build(
      { sourceDir: copy, artifactsDir: dirname(zipPath), filename: basename(zipPath), overwriteDest: true },
      { showReadyMessage: false },
    );
  } finally {
    await rm(copy, { recursive: true, force: true });
  }
}
