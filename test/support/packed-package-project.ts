// A partner's fresh project holding the npm package as npm publishes it: `npm pack` of `dist/package/`, installed
// with `npm ci --offline` beside the partner's own dependencies. No registry is asked: the project's lockfile is
// written from this repository's lockfile (same versions, same integrity), so npm takes every tarball from the cache
// the repository's own `npm ci` filled.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { ensurePackageBuilt } from './vite-build.ts';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));

interface LockEntry {
  readonly version?: string;
  readonly dependencies?: Readonly<Record<string, string>>;
  readonly optionalDependencies?: Readonly<Record<string, string>>;
  readonly peerDependencies?: Readonly<Record<string, string>>;
  readonly peerDependenciesMeta?: Readonly<Record<string, { optional?: boolean }>>;
  readonly [field: string]: unknown;
}

/** The partner's own dependencies, by name, at the versions this repository installed. */
export interface PartnerDependencies {
  readonly dependencies: readonly string[];
  readonly devDependencies: readonly string[];
}

/** The folder above `path` in a lockfile (`node_modules/a/node_modules/b` -> `node_modules/a`; top level -> ''). */
function parentOf(path: string): string {
  const cut = path.lastIndexOf('/node_modules/');
  return cut < 0 ? '' : path.slice(0, cut);
}

/** Every lockfile entry `names` need, at the paths the repository's lockfile has them, without its dev flags. */
function lockEntriesFor(
  names: readonly string[],
  packages: Record<string, LockEntry>,
): Record<string, LockEntry> {
  const entries: Record<string, LockEntry> = {};
  const visit = (name: string, from: string): void => {
    for (let base = from; ; base = parentOf(base)) {
      const path = `${base ? `${base}/` : ''}node_modules/${name}`;
      const entry = packages[path];
      if (entry) {
        add(path, entry);
        return;
      }
      if (!base) return; // an optional peer nobody installed
    }
  };
  const add = (path: string, entry: LockEntry): void => {
    if (path in entries) return;
    const { dev: _dev, devOptional: _devOptional, peer: _peer, ...kept } = entry;
    entries[path] = kept;
    const optionalPeer = (peer: string): boolean => entry.peerDependenciesMeta?.[peer]?.optional === true;
    const needed = [
      ...Object.keys(entry.dependencies ?? {}),
      ...Object.keys(entry.optionalDependencies ?? {}),
      ...Object.keys(entry.peerDependencies ?? {}).filter((peer) => !optionalPeer(peer)),
    ];
    for (const dependency of needed) visit(dependency, path);
  };
  for (const name of names) visit(name, '');
  return entries;
}

/** The version this repository installed of `name` (its lockfile's top-level entry). */
function installedVersion(packages: Record<string, LockEntry>, name: string): string {
  const version = packages[`node_modules/${name}`]?.version;
  if (!version) throw new Error(`${name} is not in this repository's package-lock.json.`);
  return version;
}

/**
 * Packs `dist/package/` (built when stale) into a new temporary folder and installs it there, offline, with the
 * partner's `dependencies` and `devDependencies`; returns the folder, which then holds `package.json`,
 * `package-lock.json` and `node_modules/`.
 */
export async function createPackedPackageProject(partner: PartnerDependencies): Promise<string> {
  ensurePackageBuilt();
  const project = await mkdtemp(join(tmpdir(), 'fan-polls-partner-app-'));
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', project], {
    cwd: `${root}dist/package`,
  });
  const tarball = (JSON.parse(stdout) as { filename: string }[])[0]!.filename;
  const packed = JSON.parse(await readFile(`${root}dist/package/package.json`, 'utf8')) as LockEntry;
  const lock = JSON.parse(await readFile(`${root}package-lock.json`, 'utf8')) as {
    packages: Record<string, LockEntry>;
  };
  const pinned = (names: readonly string[]): Record<string, string> =>
    Object.fromEntries(names.map((name) => [name, installedVersion(lock.packages, name)]));
  const manifest = {
    name: 'partner-app',
    private: true,
    type: 'module',
    dependencies: { 'fan-polls': `file:${tarball}`, ...pinned(partner.dependencies) },
    devDependencies: pinned(partner.devDependencies),
  };
  const integrity = `sha512-${createHash('sha512')
    .update(await readFile(join(project, tarball)))
    .digest('base64')}`;
  const theirs = [
    ...Object.keys(packed.dependencies ?? {}),
    ...partner.dependencies,
    ...partner.devDependencies,
  ];
  const projectLock = {
    name: manifest.name,
    lockfileVersion: 3,
    requires: true,
    packages: {
      '': manifest,
      'node_modules/fan-polls': {
        version: packed.version,
        resolved: `file:${tarball}`,
        integrity,
        license: packed['license'],
        dependencies: packed.dependencies,
        peerDependencies: packed.peerDependencies,
        peerDependenciesMeta: packed.peerDependenciesMeta,
      },
      ...lockEntriesFor(theirs, lock.packages),
    },
  };
  await writeFile(join(project, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  await writeFile(join(project, 'package-lock.json'), `${JSON.stringify(projectLock, null, 2)}\n`);
  await run('npm', ['ci', '--offline', '--no-audit', '--no-fund', '--include=dev'], {
    cwd: project,
    timeout: 120_000,
  }).catch((error: unknown) => {
    throw new Error(
      'npm ci --offline failed in the partner project: a tarball this repository locks is not in npm’s cache ' +
        '(run `npm ci` here first, which fills it).',
      { cause: error },
    );
  });
  return project;
}
