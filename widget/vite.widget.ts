// The widget build: the first-paint scripts (IIFE), the lazy parts (IIFE files that take Lit and the shared modules
// from the first-paint script through one global), the iframe page, and `custom-elements.json`.
import { execFile } from 'node:child_process';
import { copyFile, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build, type InlineConfig, type Plugin, type UserConfig } from 'vite';
import { tidyManifest, type ElementsManifest } from './build/elements-manifest.ts';
import { minifyCssTemplates } from './build/minify-css.ts';
import { minifyHtmlTemplates } from './build/minify-html.ts';
import { partFileName, runtimeGlobalName } from './runtime/runtime-global.ts';
import {
  copiedStatelessModulePaths,
  sharedExports,
  sharedModulePaths,
  type SharedModulePath,
} from './runtime/shared-module-paths.ts';
import { relativeImportSpecifiers, valueImports } from './build/module-imports.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const widgetFolder = fileURLToPath(new URL('.', import.meta.url));
const outDir = fileURLToPath(new URL('../dist/widget/', import.meta.url));
const runtimeGlobal = `globalThis[${JSON.stringify(runtimeGlobalName)}].m`;
const sharedPrefix = 'fan-polls-shared:';
/** Lit as the widget imports it (`lit/html.js`: the templates only), and as a part must not (`lit`: LitElement too). */
const litSpecifiers = ['lit/html.js', 'lit'];

/** Modules bundled into the first-paint script, so that no part bundles a second copy of one of them. */
const firstPaintModules = new Set<string>();

/** One IIFE bundle from one entry; IIFE cannot code-split, which is what makes each output self-contained. */
function iifeBuild(
  entry: string,
  fileName: string,
  emptyOutDir: boolean,
  plugins: Plugin[] = [],
): InlineConfig {
  return {
    configFile: false,
    publicDir: false,
    logLevel: 'warn',
    plugins: [minifiedTemplates(), ...plugins],
    build: {
      outDir,
      emptyOutDir,
      target: 'es2022',
      minify: true,
      sourcemap: false,
      reportCompressedSize: false,
      lib: { entry: widgetFolder + entry, formats: ['iife'], name: 'FanPolls', fileName: () => fileName },
    },
  };
}

/** Lit templates without their indentation (CSS minified, HTML whitespace collapsed). */
function minifiedTemplates(): Plugin {
  return {
    name: 'fan-polls-minify-templates',
    enforce: 'pre',
    transform(code, id) {
      if (!id.startsWith(widgetFolder) || !id.endsWith('.ts')) return null;
      return { code: minifyHtmlTemplates(minifyCssTemplates(code)), map: null };
    },
  };
}

/** Remembers every module of the first-paint script. */
function recordModules(): Plugin {
  return {
    name: 'fan-polls-record-first-paint',
    generateBundle(_options, bundle) {
      for (const output of Object.values(bundle))
        if (output.type === 'chunk') for (const id of output.moduleIds) firstPaintModules.add(id);
    },
  };
}

/**
 * In a part: Lit and the shared modules come from the first-paint script (`runtime/shared-modules.ts`); bundling a
 * first-paint module the table does not share fails the build, as would a second Lit.
 */
function sharedFromFirstPaint(): Plugin {
  return {
    name: 'fan-polls-shared-from-first-paint',
    enforce: 'pre',
    resolveId(source, importer) {
      if (litSpecifiers.includes(source)) return { id: sharedPrefix + 'lit', external: true };
      if (!importer || !source.startsWith('.')) return null;
      const path = relative(root, resolve(dirname(importer), source));
      return (sharedModulePaths as readonly string[]).includes(path)
        ? { id: sharedPrefix + path, external: true }
        : null;
    },
    transform(code, id) {
      // Lit and the shared modules reach a part through the first-paint script's table, which holds the listed exports.
      const imports = relativeImportSpecifiers(code).map((specifier) => ({
        specifier,
        path: relative(root, resolve(dirname(id), specifier)),
      }));
      const lit = litSpecifiers.map((specifier) => ({ specifier, path: 'lit' }));
      for (const { specifier, path } of [...lit, ...imports]) {
        if (!(sharedModulePaths as readonly string[]).includes(path)) continue;
        const allowed: readonly string[] = sharedExports[path as SharedModulePath];
        const missing = valueImports(code, specifier).filter((name) => !allowed.includes(name));
        if (missing.length > 0)
          this.error(
            `${relative(root, id)} imports ${missing.join(', ')} from '${path}', which parts do not get. ` +
              'Add it to sharedExports (widget/runtime/shared-module-paths.ts) and to shared-modules.ts.',
          );
      }
      return null;
    },
    generateBundle(_options, bundle) {
      for (const output of Object.values(bundle)) {
        if (output.type !== 'chunk') continue;
        const copies = output.moduleIds.filter(
          (id) =>
            (firstPaintModules.has(id) &&
              id.startsWith(root) &&
              !(copiedStatelessModulePaths as readonly string[]).includes(relative(root, id))) ||
            /node_modules\/(lit|lit-html|lit-element|@lit)\//.test(id),
        );
        if (copies.length > 0)
          this.error(
            `${output.fileName} bundles modules of the first-paint script: ${copies.map((id) => relative(root, id)).join(', ')}. ` +
              'Add them to widget/runtime/shared-module-paths.ts and shared-modules.ts.',
          );
      }
    },
  };
}

function partBuild(entry: string, name: string): InlineConfig {
  const config = iifeBuild(entry, partFileName(name), false, [sharedFromFirstPaint()]);
  return {
    ...config,
    build: {
      ...config.build,
      rolldownOptions: {
        output: {
          globals: (id: string) => `${runtimeGlobal}[${JSON.stringify(id.slice(sharedPrefix.length))}]`,
        },
      },
    },
  };
}

/** After the first-paint script: its parts, the iframe loader, the iframe page, and the elements' manifest. */
function companionBuilds(): Plugin {
  return {
    name: 'fan-polls-companion-builds',
    apply: 'build',
    async closeBundle() {
      await build(iifeBuild('embed/poll.ts', 'embed/poll.js', false, [recordModules()]));
      const parts = (await readdir(widgetFolder + 'parts')).filter((file) => file.endsWith('.part.ts'));
      for (const file of parts) await build(partBuild(`parts/${file}`, file.replace(/\.part\.ts$/, '')));
      await build(iifeBuild('fan-polls-frame.ts', 'fan-polls-frame.js', false));
      await mkdir(outDir + 'embed', { recursive: true });
      await copyFile(widgetFolder + 'embed/poll.html', outDir + 'embed/poll.html');
      await copyFile(widgetFolder + 'embed/poll.css', outDir + 'embed/poll.css');
      await writeElementsManifest();
    },
  };
}

/** Public in TypeScript for the lazy parts (and Lit's internal state), not the elements' API. */
const internalMembers = {
  'fan-poll': [
    'fan',
    'selected',
    'voteError',
    'cardStrings',
    'announce',
    'refreshPoll',
    'currentView',
    'reportError',
  ],
  'fan-poll-list': ['shownIds'],
};

/** `custom-elements.json` from the elements' JSDoc (`@summary @attr @fires @csspart @cssproperty`). */
async function writeElementsManifest(): Promise<void> {
  const cli = createRequire(import.meta.url).resolve('@custom-elements-manifest/analyzer/cem.js');
  await promisify(execFile)(
    process.execPath,
    [
      cli,
      'analyze',
      '--litelement',
      '--globs',
      'widget/fan-poll/fan-poll.ts',
      'widget/fan-poll-list/fan-poll-list.ts',
      '--outdir',
      'dist/widget',
    ],
    { cwd: root },
  );
  const file = outDir + 'custom-elements.json';
  const manifest = JSON.parse(await readFile(file, 'utf8')) as ElementsManifest;
  await writeFile(file, JSON.stringify(tidyManifest(manifest, internalMembers), null, 2) + '\n');
}

/** `vite build --mode widget`: `dist/widget/` (see the README's widget section for the files). */
export function widgetBuild(): UserConfig {
  const { configFile: _configFile, ...config } = iifeBuild('fan-polls.ts', 'fan-polls.js', true, [
    recordModules(),
    companionBuilds(),
  ]);
  return config;
}
