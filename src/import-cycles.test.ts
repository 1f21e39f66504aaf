// No import cycle in the production code: every static `import`/`export ... from` (type-only ones too) of the .ts
// files under src/, widget/ and extension/, tests left out, read with TypeScript's own import scanner. A dynamic `import()`
// is a lazy edge (a chunk loaded later), not part of a module's evaluation, so it does not count.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const folders = ['src', 'widget', 'extension'];

function productionFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : productionFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')
      ? [path]
      : [];
  });
}

/** The files a module imports statically, resolved to paths (relative specifiers only: packages cannot cycle back). */
function staticImports(file: string): string[] {
  // TypeScript's import scanner (no syntax tree): static imports and re-exports; `import()` only in JavaScript.
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, false);
  return importedFiles
    .map(({ fileName }) => fileName)
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => resolve(dirname(file), specifier.replace(/\.js$/, '.ts')));
}

/** Every cycle's files, found by a depth-first walk (each cycle once, from where the walk first closed it). */
function importCycles(files: readonly string[]): string[][] {
  const graph = new Map(files.map((file) => [file, staticImports(file)]));
  const done = new Set<string>();
  const onPath: string[] = [];
  const cycles: string[][] = [];
  const visit = (file: string) => {
    const at = onPath.indexOf(file);
    if (at !== -1) {
      cycles.push([...onPath.slice(at), file]);
      return;
    }
    if (done.has(file)) return;
    onPath.push(file);
    for (const imported of graph.get(file) ?? []) visit(imported);
    onPath.pop();
    done.add(file);
  };
  for (const file of files) visit(file);
  return cycles;
}

describe('the production code’s imports', () => {
  it('have no cycle (static imports, type-only ones included)', { timeout: 30_000 }, () => {
    const files = folders.flatMap((folder) => productionFiles(join(root, folder)));
    expect(files.length).toBeGreaterThan(100);
    const cycles = importCycles(files).map((cycle) => cycle.map((file) => relative(root, file)).join(' -> '));
    expect(cycles).toEqual([]);
  });

  it('finds a type-only cycle (the check is not vacuous)', () => {
    const folder = mkdtempSync(join(tmpdir(), 'fan-polls-cycle-'));
    try {
      writeFileSync(
        join(folder, 'routes.ts'),
        "import { version } from './version.ts';\nexport type Reader = 1;\n",
      );
      writeFileSync(
        join(folder, 'version.ts'),
        "import type { Reader } from './routes.ts';\nexport const version = 1;\n",
      );
      writeFileSync(join(folder, 'lazy.ts'), "export const load = () => import('./routes.ts');\n");
      const files = ['routes.ts', 'version.ts', 'lazy.ts'].map((name) => join(folder, name));
      expect(importCycles(files).map((cycle) => cycle.map((file) => relative(folder, file)))).toEqual([
        ['routes.ts', 'version.ts', 'routes.ts'],
      ]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
