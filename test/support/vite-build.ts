import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Runs one of the project's builds (`vite build --mode <mode>`) from a test or a benchmark. Vitest sets
 * `NODE_ENV=test`, which would make Lit's development build: the build always runs as production.
 */
export function viteBuild(mode: 'widget' | 'extension-chrome' | 'extension-firefox' | 'server'): void {
  execFileSync('npx', ['vite', 'build', '--mode', mode], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
}
