import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Runs one of the project's builds (`vite build --mode <mode>`) from a test or a benchmark, with `env` added to the
 * environment. Vitest sets `NODE_ENV=test`, which would make Lit's development build: the build always runs as
 * production.
 */
export function viteBuild(
  mode: 'widget' | 'extension-chrome' | 'extension-firefox' | 'server' | 'package' | 'configurator',
  env: Readonly<Record<string, string>> = {},
): void {
  execFileSync('npx', ['vite', 'build', '--mode', mode], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ...env, NODE_ENV: 'production' },
  });
}

/** Builds `dist/widget` when it is missing or older than any file of `widget/`, `src/polls/` or `src/contracts/`. */
export function ensureWidgetBuilt(): void {
  const built = `${root}dist/widget-files.json`;
  const builtAt = existsSync(built) ? statSync(built).mtimeMs : 0;
  const newest = Math.max(
    ...['widget', 'src/polls', 'src/contracts'].map((folder) => newestIn(`${root}${folder}`)),
  );
  if (newest > builtAt) viteBuild('widget');
}

function newestIn(folder: string): number {
  let newest = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = `${folder}/${entry.name}`;
    newest = Math.max(newest, entry.isDirectory() ? newestIn(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** Builds `dist/package` (from the widget's build) when it is missing or older than the widget build or its sources. */
export function ensurePackageBuilt(): void {
  ensureWidgetBuilt();
  const built = `${root}dist/package/package.json`;
  const builtAt = existsSync(built) ? statSync(built).mtimeMs : 0;
  const newest = Math.max(
    statSync(`${root}dist/widget-files.json`).mtimeMs,
    newestIn(`${root}widget/package`),
    newestIn(`${root}widget/ssr`),
  );
  if (newest > builtAt) viteBuild('package');
}

/** Builds `dist/configurator` when it is missing or older than any file of `widget/configurator/`. */
export function ensureConfiguratorBuilt(): void {
  const built = `${root}dist/configurator/index.html`;
  const builtAt = existsSync(built) ? statSync(built).mtimeMs : 0;
  if (newestIn(`${root}widget/configurator`) > builtAt) viteBuild('configurator');
}

/**
 * Builds the servers (`dist/proxy`, `dist/sandbox`, `dist/server`) when missing or older than any file of `src/` or
 * `widget/` (the proxy draws cards with the widget's templates): `npm test` has just built them.
 */
export function ensureServerBuilt(): void {
  const built = `${root}dist/proxy/main.js`;
  const builtAt = existsSync(built) ? statSync(built).mtimeMs : 0;
  if (Math.max(newestIn(`${root}src`), newestIn(`${root}widget`)) > builtAt) viteBuild('server');
}
