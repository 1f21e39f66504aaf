// The release's world in a git checkout: its files, git and npm for real. `release.ts` runs the release on this
// repository's; the release tests run it on a temporary repository of their own.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import type { ReleaseWorld } from './release-steps.ts';

/** The checkout at `root` (a path ending in `/`); `runScript` may be replaced, as tests do. */
export function checkoutWorld(root: string, overrides: Partial<ReleaseWorld> = {}): ReleaseWorld {
  return {
    readFile: (path) => readFileSync(root + path, 'utf8'),
    writeFile: (path, text) => {
      writeFileSync(root + path, text);
    },
    askGit: (args) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }),
    changeGit: (args) => {
      execFileSync('git', args, { cwd: root, encoding: 'utf8' });
    },
    runScript: (script) => {
      execFileSync('npm', ['run', script], { cwd: root, stdio: 'inherit' });
    },
    log: (line) => {
      console.log(line);
    },
    ...overrides,
  };
}
