import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * Whether `dist/` was built from the sources as they are now: a SHA-256 over every build input's path and bytes,
 * stored beside the build. Contents, not modification times, so a fresh clone or a `git checkout` that changes
 * nothing does not cost a rebuild, and an edit always does.
 */
const buildInputs = [
  'src',
  'widget',
  'extension',
  'public',
  'manifest.json',
  'vite.config.ts',
  'tsconfig.json',
  'package.json',
  'package-lock.json',
] as const;

const stampFile = join('dist', '.build-inputs.sha256');
const skipped = /(^|\/)(node_modules|dist)(\/|$)|\.test\.ts$/;

export function hashBuildInputs(root: string): string {
  const hash = createHash('sha256');
  for (const file of buildInputs.flatMap((input) => filesUnder(root, input)).sort()) {
    hash.update(relative(root, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex');
}

export function isBuildFresh(root: string): boolean {
  const stamp = join(root, stampFile);
  return existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === hashBuildInputs(root);
}

export function recordBuild(root: string): void {
  writeFileSync(join(root, stampFile), hashBuildInputs(root) + '\n');
}

function filesUnder(root: string, path: string): string[] {
  const full = join(root, path);
  if (!existsSync(full)) return [];
  if (statSync(full).isFile()) return [full];
  return readdirSync(full, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .filter((file) => !skipped.test(relative(root, file)));
}
