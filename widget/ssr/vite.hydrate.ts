// `fan-polls-hydrate.js` in the widget build: one self-contained module (Lit, its hydration support, the element
// code, every lazy part inlined), so that Lit's `lit-element` cannot be evaluated before the hydration support.
// Templates are not minified here: Lit hydrates a template only when its strings are the ones the server rendered
// (the server renders from the sources), and the minifier rewrites them.
import { fileURLToPath } from 'node:url';
import type { InlineConfig } from 'vite';
import { licenceNotices } from '../../src/dev/licence-notices.ts';
import { hydrateFileName } from './hydrate-file-name.ts';

const source = fileURLToPath(new URL('./fan-polls-hydrate.ts', import.meta.url));

export function hydrateBuild(outDir: string): InlineConfig {
  return {
    configFile: false,
    publicDir: false,
    logLevel: 'warn',
    plugins: [licenceNotices('widget')],
    build: {
      outDir,
      emptyOutDir: false,
      target: 'es2022',
      minify: true,
      sourcemap: false,
      reportCompressedSize: false,
      lib: { entry: source, formats: ['es'], fileName: () => hydrateFileName },
      rolldownOptions: { output: { minify: true, comments: false, codeSplitting: false } },
    },
  };
}
