// Tests wait on events, never on clocks: no test file may sleep for a fixed time (`waitForTimeout(…)`, or a promise
// resolved by `setTimeout(resolve, <a number of ms>)`). A test that proves something does not happen waits for a
// later event that ends the quiet period; a test of expiry injects a clock. Polling for a condition goes through
// test/support/wait-until.ts, the one loop allowed to pause between its looks.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The folders whose tests and test support are checked (the benches measure time, and may spend it). */
const checkedFolders = ['src', 'widget', 'extension', 'test'];

/** The loop that polls a condition (allowed its pause), and this check, which spells out what it looks for. */
const allowed = new Set(['test/support/wait-until.ts', 'src/tests-wait-on-events.test.ts']);

function typeScriptFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory())
      return ['node_modules', 'bench'].includes(entry.name) ? [] : typeScriptFiles(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** A file the check covers: a test file anywhere, or any file of test support. */
const isTestCode = (path: string) =>
  /\.test\.tsx?$/.test(path) || path.startsWith('test/') || path.includes('/test-support/');

/**
 * A fixed wait: `waitForTimeout(`, `setTimeout(resolve, <ms>)` or `setTimeout(() => resolve(), <ms>)` with any number
 * of milliseconds but 0 (a turn of the event loop), or `sleep(<ms>)`.
 */
const fixedWait = new RegExp(
  [
    String.raw`\bwaitForTimeout\(`,
    String.raw`\bsetTimeout\(\s*(?:\(\)\s*=>\s*)?(?:resolve|r|done|res)(?:\(\))?\s*,\s*(?!0\s*[,)])[\d_]+`,
    String.raw`\bsleep\(\s*[\d_]+\s*\)`,
  ].join('|'),
);

/** Every fixed wait under `base`, as `path:line: text`. */
function fixedWaits(base: string, folders: readonly string[]): string[] {
  return folders
    .flatMap((folder) => typeScriptFiles(join(base, folder)))
    .map((file) => ({ file, path: relative(base, file).replaceAll('\\', '/') }))
    .filter(({ path }) => isTestCode(path) && !allowed.has(path))
    .flatMap(({ file, path }) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, index) =>
          fixedWait.test(line) ? [`${path}:${String(index + 1)}: ${line.trim()}`] : [],
        ),
    );
}

describe('tests wait on events, never on clocks', () => {
  it('holds no fixed sleep in any test or test support file', () => {
    expect(fixedWaits(root, checkedFolders)).toEqual([]);
  });

  it('finds each kind of fixed wait, and lets a turn of the event loop pass (the check is not vacuous)', () => {
    const lines = [
      'await page.waitForTimeout(500);',
      'await new Promise((resolve) => setTimeout(resolve, 1500));',
      'await new Promise<void>((r) => setTimeout(r, 20));',
      'await new Promise((resolve) => setTimeout(resolve, 1_000));',
      'await new Promise<void>((resolve) => setTimeout(() => resolve(), 300));',
      'await sleep(400);',
      'const tick = () => new Promise((resolve) => setTimeout(resolve, 0));',
      'await new Promise((resolve) => setTimeout(resolve, deadline - Date.now()));',
    ];
    expect(lines.map((line) => fixedWait.test(line))).toEqual([
      true,
      true,
      true,
      true,
      true,
      true,
      false,
      false,
    ]);
  });
});
