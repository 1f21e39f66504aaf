// The edge build (`vite build --mode edge`): the proxy's Worker entry as one ES module for the Workers runtime, with
// every package bundled and no Node built-in (the build fails on one), and beside it a `workerd` config for local
// runs (`npx workerd serve dist/edge/workerd.capnp`).
import { fileURLToPath } from 'node:url';
import type { Plugin, UserConfig } from 'vite';
import { workerdConfig } from './workerd-config.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

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
    resolve: { conditions: edgeConditions },
    ssr: { target: 'webworker', noExternal: true, resolve: { conditions: edgeConditions } },
    plugins: [workerdConfigFile()],
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
