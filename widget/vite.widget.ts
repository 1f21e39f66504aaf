// The widget build: the element code as native ES modules in content-hashed chunks (Vite's own code splitting),
// then three small entries with stable names that import it, then the iframe page and `custom-elements.json`.
import { execFile } from 'node:child_process';
import { copyFile, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import minifyHtmlLiterals from '@lit-labs/rollup-plugin-minify-html-literals';
import { build, type InlineConfig, type Plugin, type UserConfig } from 'vite';
import { tidyManifest, type ElementsManifest } from './build/elements-manifest.ts';
import { licenceNotices } from '../src/dev/licence-notices.ts';
import { widgetVersion } from './base/widget-version.ts';
import { widgetFilesPath, type WidgetFiles } from './build/widget-files.ts';
import { readPreviousBuilds, retainReleases, type PreviousBuilds } from './build/widget-releases.ts';
import { hydrateBuild } from './ssr/vite.hydrate.ts';
import { precompressFolder } from './build/precompressed-files.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const widgetFolder = fileURLToPath(new URL('.', import.meta.url));
const outDir = fileURLToPath(new URL('../dist/widget/', import.meta.url));
/** The element code's module, which every entry imports dynamically under its hashed name. */
const pageWidget = widgetFolder + 'page-widget.ts';
const pageWidgetPlaceholder = '__fan_polls_page_widget__';
/**
 * No comments in what pages load: tree-shaking annotations (`@__PURE__`) are for bundlers, and pages get the final
 * code. Lit's `@license` headers too: with them the script-tag card's code passes its 20 kB budget (20,568 B
 * gzip against 20,477 B), so its BSD-3-Clause notice ships beside the files instead, in `THIRD-PARTY-NOTICES.txt`
 * with the project's `LICENSE` (`licenceNotices`), served under `/widget/` like them.
 */
const shippedComments = false;
/**
 * The entries partners and the iframe page load: stable names (revalidated by the server), each self-contained so
 * that it runs, and starts the poll read, as soon as it arrives; everything it imports is a hashed chunk.
 */
const entries = [
  { source: 'fan-polls.ts', file: 'fan-polls.js' },
  { source: 'iframe/fan-polls-frame.ts', file: 'fan-polls-frame.js' },
  { source: 'iframe/frame-page.ts', file: 'embed/poll.js' },
  { source: 'iframe/session-frame.ts', file: 'embed/session.js' },
] as const;

/**
 * Lit's templates minified by Lit's own plugin: HTML by html-minifier-next, CSS by lightningcss (measured: -324 B gzip
 * on the element code; docs/decisions/0010-templates-minified-by-lits-plugin.md). A template it cannot parse fails the
 * build instead of shipping unminified.
 */
function minifiedTemplates(): Plugin {
  const rollupPlugin = minifyHtmlLiterals({ include: 'widget/**/*.ts', failOnError: true });
  // A Rollup plugin: Vite runs it as it is (only its `transform` hook), typed against Rollup's own context.
  return { ...rollupPlugin, enforce: 'pre' } as unknown as Plugin;
}

function common(): InlineConfig {
  return {
    configFile: false,
    publicDir: false,
    logLevel: 'warn',
    build: {
      outDir,
      target: 'es2022',
      minify: true,
      sourcemap: false,
      reportCompressedSize: false,
    },
  };
}

/** After the chunks: each entry, with its `import('./page-widget.ts')` pointing at the hashed chunk. */
function entryBuilds(): Plugin {
  let pageWidgetFile: string | undefined;
  let elementCode: string[] = [];
  let previous: PreviousBuilds = { releases: [], files: new Map() };
  return {
    name: 'fan-polls-entry-builds',
    apply: 'build',
    async buildStart() {
      // Before the build empties the folder: earlier builds' chunks, kept beside this one's (widget-releases.ts).
      previous = await readPreviousBuilds(previousWidgetFolders());
    },
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).flatMap((output) => (output.type === 'chunk' ? [output] : []));
      const entry = chunks.find((chunk) => chunk.isEntry && chunk.facadeModuleId === pageWidget);
      pageWidgetFile = entry?.fileName;
      // The element code and every chunk it imports statically: what a card needs before it renders.
      const needed = new Set(entry ? [entry.fileName] : []);
      for (const file of needed)
        for (const imported of chunks.find((chunk) => chunk.fileName === file)?.imports ?? [])
          needed.add(imported);
      elementCode = [...needed];
    },
    async closeBundle() {
      if (!pageWidgetFile) throw new Error('The widget build emitted no page-widget chunk.');
      for (const entry of entries) await build(entryBuild(entry.source, entry.file, pageWidgetFile));
      await build(hydrateBuild(outDir));
      // The iframe page preloads the element code its script imports (the script is in the page already).
      const framePage = (await readFile(widgetFolder + 'iframe/poll.html', 'utf8')).replace(
        '<!-- fan-polls-element-code -->',
        elementCode.map((file) => `<link rel="modulepreload" href="../${file}" />`).join('\n    '),
      );
      await writeFile(outDir + 'embed/poll.html', framePage);
      await copyFile(widgetFolder + 'iframe/poll.css', outDir + 'embed/poll.css');
      await copyFile(widgetFolder + 'iframe/session.html', outDir + 'embed/session.html');
      await writeElementsManifest();
      // The proxy serves the build under `/widget/v<version>/` too (src/proxy/widget-version.ts).
      const files: WidgetFiles = { scriptTagCard: ['fan-polls.js', ...elementCode] };
      // With the files a card's recommended snippet preloads (the configurator writes them into it): a card of every
      // phase paints from these and its data.
      await writeFile(
        outDir + 'version.json',
        JSON.stringify({ version: widgetVersion, scriptTagCard: files.scriptTagCard }) + '\n',
      );
      await writeFile(widgetFilesPath, JSON.stringify(files, null, 2) + '\n');
      await retainReleases(outDir, widgetVersion, previous);
      // Last, once every file (retained releases too) is in place: the proxy serves these copies.
      await precompressFolder(outDir);
    },
  };
}

/**
 * Where earlier builds are: the `dist/widget/` this build replaces and, for a build server that starts clean,
 * `FAN_POLLS_PREVIOUS_WIDGET_DIR` (a copy of the deployed `dist/widget/`).
 */
function previousWidgetFolders(): string[] {
  const deployed = process.env.FAN_POLLS_PREVIOUS_WIDGET_DIR?.trim();
  return [outDir, ...(deployed ? [deployed] : [])];
}

function entryBuild(source: string, file: string, pageWidgetFile: string): InlineConfig {
  const base = common();
  const depth = file.split('/').length - 1;
  const chunkPath = (depth === 0 ? './' : '../'.repeat(depth)) + pageWidgetFile;
  return {
    ...base,
    plugins: [
      {
        name: 'fan-polls-page-widget-chunk',
        enforce: 'pre',
        resolveId(id, importer) {
          if (importer && id.endsWith('/page-widget.ts'))
            return { id: pageWidgetPlaceholder, external: true };
          return null;
        },
        renderChunk(code) {
          return { code: code.replaceAll(pageWidgetPlaceholder, chunkPath), map: null };
        },
      },
      licenceNotices('widget'),
    ],
    build: {
      ...base.build,
      emptyOutDir: false,
      // Library mode: Vite then wraps no `import()` in its preload helper (the entry imports one chunk).
      lib: { entry: widgetFolder + source, formats: ['es'], fileName: () => file },
      // Library mode keeps an ES module's whitespace by default; these are served to pages, so minify it all.
      rolldownOptions: { output: { minify: true, comments: shippedComments } },
    },
  };
}

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
      'widget/iframe/fan-polls-frame.ts',
      '--outdir',
      'dist/widget',
    ],
    { cwd: root },
  );
  const file = outDir + 'custom-elements.json';
  const manifest = JSON.parse(await readFile(file, 'utf8')) as ElementsManifest;
  await writeFile(file, JSON.stringify(tidyManifest(manifest, internalMembers), null, 2) + '\n');
}

/**
 * Public in TypeScript for the list's lazily imported body (and Lit's internal state), and for the banner's page (the
 * card's way back to its host page), not the elements' API.
 */
const internalMembers = { 'fan-poll-list': ['shownIds'], 'fan-poll': ['signInPage'] };

/**
 * `vite build --mode widget`: `dist/widget/` (see docs/embedding.md for the files). The element code is
 * one entry (`page-widget.ts`); the bundler splits what it imports with `import()` (other languages, the list's
 * body) into chunks of their own, every one named `chunks/<name>-<hash>.js`. Earlier builds' chunks stay beside
 * them (`build/widget-releases.ts`, `releases.json`), so that pages holding an older entry keep loading.
 */
export function widgetBuild(): UserConfig {
  const { configFile: _configFile, ...base } = common();
  return {
    ...base,
    plugins: [minifiedTemplates(), entryBuilds(), licenceNotices('widget')],
    build: {
      ...base.build,
      emptyOutDir: true,
      // Library mode, as for the entries: no preload helper (nor its `<link rel="modulepreload">`) in the chunks.
      lib: { entry: { 'page-widget': pageWidget }, formats: ['es'] },
      rolldownOptions: {
        preserveEntrySignatures: 'allow-extension',
        output: {
          minify: true,
          comments: shippedComments,
          entryFileNames: 'chunks/[name]-[hash].js',
          chunkFileNames: 'chunks/[name]-[hash].js',
        },
      },
    },
  };
}
