// The dependency rule of docs/architecture.md, checked on every import under src/ (tests too; dynamic `import()`
// too): src/ imports no shell (widget/, extension/) except the widget modules the proxy is given to draw a card on
// the server, named below; the sandbox and the proxy never import each other; the shared core imports nothing above it.
// In the widget, the voting (`widget/voting/`, and the page's fan session in `widget/session/`) is below the card:
// the card's folders import it, never the reverse (its tests may mount a card).
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The only shell modules src/ may import, each for the proxy's server-drawn card, and only from src/proxy/. */
const shellModulesTheProxyIsGiven: readonly string[] = [
  'widget/ssr/render-fan-poll.ts', // renderFanPoll, loaded on first use by frame-card-lit-ssr.ts
  'widget/ssr/render-options.ts', // the renderer's options (a type)
  'widget/ssr/server-poll-data.ts', // the poll's data block, as the hydrating card reads it
  'widget/ssr/hydrate-file-name.ts', // the hydrating bundle's file name, preloaded by the drawn banner page
  'widget/iframe/frame-card-settings.ts', // the banner page's settings, read the same way on both sides
  'widget/iframe/frame-preload.ts', // the banner page's preload lines
];

/** The shared core, which every part builds on. */
const core = ['src/contracts/', 'src/platform/', 'src/polls/'];

function typeScriptFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : typeScriptFiles(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Each relative import of a file (static, re-export or `import()`), as a path from `base`. */
function importsOf(file: string, base: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return importedFiles
    .map(({ fileName }) => fileName)
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => relative(base, resolve(dirname(file), specifier.replace(/\.js$/, '.ts'))));
}

/** The widget's folders the voting never imports: the card's, which import the voting. */
const aboveTheVoting = [
  'widget/fan-poll/',
  'widget/fan-poll-list/',
  'widget/controllers/',
  'widget/ssr/',
  'widget/iframe/',
];

/** Every import of the voting's production files that reaches above it, as `importer -> imported: why`. */
function votingBreaks(base: string): string[] {
  return ['widget/voting', 'widget/session'].flatMap((folder) =>
    typeScriptFiles(join(base, folder))
      .filter((file) => !/\.test\.tsx?$/.test(file))
      .flatMap((file) => {
        const importer = relative(base, file);
        return importsOf(file, base)
          .filter((imported) => aboveTheVoting.some((above) => imported.startsWith(above)))
          .map((imported) => `${importer} -> ${imported}: the card imports the voting, never the reverse`);
      }),
  );
}

/** Every import that breaks the rule, as `importer -> imported: why`. */
function ruleBreaks(base: string): string[] {
  return [...srcBreaks(base), ...votingBreaks(base)];
}

/** Every import under `base`/src that breaks the rule, as `importer -> imported: why`. */
function srcBreaks(base: string): string[] {
  return typeScriptFiles(join(base, 'src')).flatMap((file) => {
    const importer = relative(base, file);
    const isTest = /\.test\.tsx?$/.test(importer);
    return importsOf(file, base).flatMap((imported) => {
      const edge = `${importer} -> ${imported}`;
      if (/^(widget|extension)\//.test(imported)) {
        if (!shellModulesTheProxyIsGiven.includes(imported))
          return [`${edge}: a shell module not on the list`];
        if (!importer.startsWith('src/proxy/'))
          return [`${edge}: only the proxy is given the card's renderers`];
      }
      const sandboxAndProxy = [importer, imported].map((path) =>
        path.startsWith('src/sandbox/') ? 'sandbox' : /^src\/(proxy|edge)\//.test(path) ? 'proxy' : undefined,
      );
      if (sandboxAndProxy.includes('sandbox') && sandboxAndProxy.includes('proxy'))
        return [`${edge}: the sandbox and the proxy meet over HTTP only`];
      const inCore = (path: string) => core.some((folder) => path.startsWith(folder));
      if (inCore(importer) && !isTest && imported.startsWith('src/') && !inCore(imported))
        return [`${edge}: the shared core imports nothing above it`];
      return [];
    });
  });
}

describe('the dependency rule', () => {
  it("holds for every file under src/ and the widget's voting", { timeout: 30_000 }, () => {
    expect(typeScriptFiles(join(root, 'src')).length).toBeGreaterThan(100);
    expect(typeScriptFiles(join(root, 'widget/voting')).length).toBeGreaterThan(20);
    expect(ruleBreaks(root)).toEqual([]);
  });

  it('names only shell modules that exist and that the proxy imports', () => {
    const imported = new Set(
      typeScriptFiles(join(root, 'src/proxy')).flatMap((file) => importsOf(file, root)),
    );
    expect(shellModulesTheProxyIsGiven.filter((module) => !imported.has(module))).toEqual([]);
  });

  it('finds each kind of break (the check is not vacuous)', () => {
    const base = mkdtempSync(join(tmpdir(), 'fan-polls-rule-'));
    const write = (path: string, text: string) => {
      mkdirSync(dirname(join(base, path)), { recursive: true });
      writeFileSync(join(base, path), text);
    };
    try {
      write('src/proxy/drawn.ts', "import { renderFanPoll } from '../../widget/ssr/render-fan-poll.ts';\n");
      write('src/proxy/lazy.ts', "export const load = () => import('../../widget/fan-poll/fan-poll.ts');\n");
      write(
        'src/dev/page.ts',
        "import { frameCardSettings } from '../../widget/iframe/frame-card-settings.ts';\n",
      );
      write('src/node/vault.test.ts', "import { vault } from '../../extension/background/vault.ts';\n");
      write('src/sandbox/serve.ts', "import { createProxyApp } from '../proxy/app.ts';\n");
      write('src/polls/view.ts', "import { serveProxy } from '../proxy/serve.ts';\n");
      write('widget/voting/run.ts', "import type { FanPoll } from '../fan-poll/fan-poll.ts';\n");
      write('widget/voting/run.test.ts', "import type { FanPoll } from '../fan-poll/fan-poll.ts';\n");
      write('widget/session/hint.ts', "export const load = () => import('../controllers/clock.ts');\n");
      expect(ruleBreaks(base).sort()).toEqual([
        "src/dev/page.ts -> widget/iframe/frame-card-settings.ts: only the proxy is given the card's renderers",
        'src/node/vault.test.ts -> extension/background/vault.ts: a shell module not on the list',
        'src/polls/view.ts -> src/proxy/serve.ts: the shared core imports nothing above it',
        'src/proxy/lazy.ts -> widget/fan-poll/fan-poll.ts: a shell module not on the list',
        'src/sandbox/serve.ts -> src/proxy/app.ts: the sandbox and the proxy meet over HTTP only',
        'widget/session/hint.ts -> widget/controllers/clock.ts: the card imports the voting, never the reverse',
        'widget/voting/run.ts -> widget/fan-poll/fan-poll.ts: the card imports the voting, never the reverse',
      ]);
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });
});
