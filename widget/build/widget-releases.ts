// Earlier builds' hashed chunks kept beside the current build's, so that a page that loaded an older entry (before a
// deploy, or from an instance not upgraded yet) still finds every chunk it imports. Run by the widget build.
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** Beside the built widget (served, public): which build shipped which hashed files, and when it was replaced. */
export const releasesFile = 'releases.json';

/** A retired build's chunks stay this long after the build that replaced it (partners: see the README). */
export const retentionDays = 30;
/** At most this many retired builds are kept (a burst of deploys cannot grow the folder without bound). */
export const maxRetiredBuilds = 20;

/** The folder of the hashed files a build ships; entries and the iframe page keep stable names and are replaced. */
const hashedFolder = 'chunks';

export interface WidgetRelease {
  readonly version: string;
  /** ISO time of the build. */
  readonly builtAt: string;
  /** ISO time of the build that replaced it; absent for the current build. */
  readonly retiredAt?: string;
  /** Its hashed files, paths under the widget folder. */
  readonly files: readonly string[];
}

export interface WidgetReleases {
  /** Newest first; the first is the current build. */
  readonly releases: readonly WidgetRelease[];
}

/** What earlier builds left: their releases and the bytes of every file they list that is still there. */
export interface PreviousBuilds {
  readonly releases: readonly WidgetRelease[];
  readonly files: ReadonlyMap<string, Uint8Array>;
}

/**
 * Reads earlier builds from folders (the `dist/widget/` about to be rebuilt; a copy of the deployed one): their
 * `releases.json`, or for a build made before it existed, its `chunks/` as one release of its `version.json`.
 */
export async function readPreviousBuilds(folders: readonly string[]): Promise<PreviousBuilds> {
  const releases = new Map<string, WidgetRelease>();
  const files = new Map<string, Uint8Array>();
  for (const folder of folders) {
    if (!existsSync(folder)) continue;
    for (const release of await releasesIn(folder)) {
      const key = `${release.version} ${release.builtAt}`;
      if (!releases.has(key)) releases.set(key, release);
      for (const file of release.files) {
        if (files.has(file)) continue;
        const bytes = await readFile(join(folder, file)).catch(() => undefined);
        if (bytes !== undefined) files.set(file, new Uint8Array(bytes));
      }
    }
  }
  return { releases: [...releases.values()], files };
}

async function releasesIn(folder: string): Promise<readonly WidgetRelease[]> {
  const manifest = await readJson(join(folder, releasesFile));
  if (isReleases(manifest)) return manifest.releases;
  const version = await readJson(join(folder, 'version.json'));
  const chunks = await hashedFilesIn(folder);
  if (chunks.length === 0) return [];
  return [
    {
      version:
        typeof version === 'object' && version !== null && 'version' in version
          ? String(version.version)
          : '0.0.0',
      builtAt: new Date(0).toISOString(),
      files: chunks,
    },
  ];
}

/**
 * The new manifest: the current build first, then every earlier one (each retired now if it was not), without
 * those retired more than `retentionDays` ago, beyond the `maxRetiredBuilds` newest, or with no file of their own.
 */
export function mergeReleases(
  current: { readonly version: string; readonly files: readonly string[] },
  previous: readonly WidgetRelease[],
  now: Date,
): WidgetReleases {
  const oldest = now.getTime() - retentionDays * 24 * 60 * 60 * 1000;
  const own = new Set(current.files);
  const retired = previous
    // A build whose files all shipped again (a rebuild of the same code) leaves nothing to keep.
    .filter((release) => release.files.some((file) => !own.has(file)))
    .map((release) => ({ ...release, retiredAt: release.retiredAt ?? now.toISOString() }))
    .filter((release) => Date.parse(release.retiredAt) >= oldest)
    .sort((a, b) => Date.parse(b.builtAt) - Date.parse(a.builtAt))
    .slice(0, maxRetiredBuilds);
  return {
    releases: [{ version: current.version, builtAt: now.toISOString(), files: current.files }, ...retired],
  };
}

/**
 * After a build wrote `folder`: its hashed files become the current release, the retained releases' files are
 * written back beside them, and `releases.json` says which is which.
 */
export async function retainReleases(
  folder: string,
  version: string,
  previous: PreviousBuilds,
  now = new Date(),
): Promise<WidgetReleases> {
  const current = await hashedFilesIn(folder);
  const merged = mergeReleases({ version, files: current }, previous.releases, now);
  const own = new Set(current);
  for (const release of merged.releases.slice(1)) {
    for (const file of release.files) {
      const bytes = previous.files.get(file);
      if (own.has(file) || bytes === undefined) continue;
      await mkdir(dirname(join(folder, file)), { recursive: true });
      await writeFile(join(folder, file), bytes);
      own.add(file);
    }
  }
  await writeFile(join(folder, releasesFile), JSON.stringify(merged, null, 2) + '\n');
  return merged;
}

async function hashedFilesIn(folder: string): Promise<string[]> {
  const chunks = join(folder, hashedFolder);
  if (!existsSync(chunks)) return [];
  const names = await readdir(chunks, { recursive: true, withFileTypes: true });
  return names
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(folder.length).replace(/^\/+/, ''))
    .sort();
}

async function readJson(path: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as unknown;
  } catch {
    return undefined;
  }
}

function isReleases(value: unknown): value is WidgetReleases {
  return (
    typeof value === 'object' &&
    value !== null &&
    'releases' in value &&
    Array.isArray(value.releases) &&
    value.releases.every(
      (release: unknown) =>
        typeof release === 'object' &&
        release !== null &&
        'version' in release &&
        typeof release.version === 'string' &&
        'builtAt' in release &&
        typeof release.builtAt === 'string' &&
        'files' in release &&
        Array.isArray(release.files),
    )
  );
}
