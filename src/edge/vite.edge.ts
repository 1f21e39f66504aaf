// The edge build (`vite build --mode edge`): the proxy's Worker entry as one ES module for the Workers runtime, with
// every package bundled and no Node built-in (the build fails on one), and beside it a `workerd` config for local
// runs (`npx workerd serve dist/edge/workerd.capnp`).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Plugin, UserConfig } from 'vite';
import { licenceNotices } from '../dev/licence-notices.ts';
import {
  edgeFallbackFontsCode,
  edgeFallbackFontsModule,
  edgeFontPackages,
  edgeModulePrefix,
  edgeModules,
  satoriStandalone,
} from './edge-modules.ts';
import { workerdConfig } from './workerd-config.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
/** The share image's fonts' licences (each SIL Open Font License 1.1, with its copyright), beside them in the edge build. */
export const fontLicenceFileName = 'FONT-LICENSES.txt';

export interface EdgeBuildOptions {
  /** Default: the proxy's Worker entry. Tests build their own small Worker with the same settings. */
  readonly entry?: string;
  readonly outDir?: string;
}

/**
 * `node`, not `browser`: Lit's server build (with its DOM shim) for the banner page's render, which runs on workerd;
 * Lit's browser build touches `document` as it loads. No other package of the bundle reads either condition.
 */
const edgeConditions = ['workerd', 'worker', 'node', 'import', 'default'];

export function edgeBuild(options: EdgeBuildOptions = {}): UserConfig {
  return {
    publicDir: false,
    logLevel: 'warn',
    // fflate (satori's font inflation) has a `node` build that reaches `node:module`; its browser build is the same.
    resolve: { conditions: edgeConditions, alias: { fflate: 'fflate/browser' } },
    ssr: { target: 'webworker', noExternal: true, resolve: { conditions: edgeConditions } },
    plugins: [edgeModuleFiles(), satoriHarfbuzzModule(), workerdConfigFile(), licenceNotices('edge')],
    build: {
      ssr: true,
      outDir: options.outDir ?? `${root}dist/edge`,
      emptyOutDir: true,
      target: 'es2024',
      minify: true,
      sourcemap: false,
      reportCompressedSize: false,
      rolldownOptions: {
        input: { worker: options.entry ?? `${root}src/edge/worker.ts` },
        output: { format: 'es', entryFileNames: '[name].js' },
      },
    },
  };
}

/** `fan-polls-edge-module:<name>` stays an import of `./<name>`, written beside the bundle (`edge-modules.ts`). */
function edgeModuleFiles(): Plugin {
  return {
    name: 'fan-polls-edge-modules',
    resolveId(id) {
      if (id === edgeFallbackFontsModule) return `\0${edgeFallbackFontsModule}`;
      if (!id.startsWith(edgeModulePrefix)) return null;
      const name = id.slice(edgeModulePrefix.length);
      if (!edgeModules.some((module) => module.name === name)) this.error(`No edge module named ${name}`);
      return { id: `./${name}`, external: true };
    },
    load(id) {
      return id === `\0${edgeFallbackFontsModule}` ? edgeFallbackFontsCode() : null;
    },
    generateBundle() {
      for (const module of edgeModules)
        this.emitFile({ type: 'asset', fileName: module.name, source: module.read() });
      // The share image's fonts ship as files, not as bundled code: the licence of each package beside them.
      this.emitFile({ type: 'asset', fileName: fontLicenceFileName, source: fontLicences() });
    },
  };
}

/** Each font package the edge build takes files from, named, with its licence text. */
function fontLicences(): string {
  return edgeFontPackages()
    .map((name) => `${name}\n\n${readFileSync(`${root}node_modules/${name}/LICENSE`, 'utf8').trim()}\n`)
    .join('\n' + '-'.repeat(80) + '\n\n');
}

/**
 * satori's standalone build starts its HarfBuzz (an Emscripten module) from inline bytes, which a Workers runtime
 * refuses to compile, and reads `self.location`, which a Worker lacks. Here HarfBuzz is instantiated from the
 * uploaded `harfbuzz.wasm` module through Emscripten's `instantiateWasm` hook instead; the build fails if the
 * pinned satori's code no longer reads as expected.
 */
function satoriHarfbuzzModule(): Plugin {
  const edits: readonly (readonly [string, string])[] = [
    [
      'cf().then(',
      // Emscripten's hook: the imports, and a callback for the instance and its module.
      'cf({instantiateWasm(i,s){WebAssembly.instantiate(fanPollsHarfbuzz,i)' +
        '.then(n=>s(n,fanPollsHarfbuzz),e=>console.error("HarfBuzz did not start",e));return{}}}).then(',
    ],
    ['B&&(A=self.location.href)', 'B&&(A=self.location?.href)'],
  ];
  return {
    name: 'fan-polls-satori-harfbuzz',
    transform(code, id) {
      if (id.split('?')[0] !== satoriStandalone) return null;
      let edited = code;
      for (const [from, to] of edits) {
        if (edited.split(from).length !== 2) this.error(`satori/standalone changed: no single ${from}`);
        edited = edited.replace(from, to);
      }
      // The inline copy (half a megabyte of base64) is no longer read.
      edited = edited.replace(/"AGFzbQ[A-Za-z0-9+/=]+"/, '""');
      return `import fanPollsHarfbuzz from "${edgeModulePrefix}harfbuzz.wasm";\n${edited}`;
    },
  };
}

function workerdConfigFile(): Plugin {
  return {
    name: 'fan-polls-workerd-config',
    generateBundle() {
      this.emitFile({
        type: 'asset',
        fileName: 'workerd.capnp',
        source: workerdConfig({ bundle: 'worker.js' }),
      });
    },
  };
}
