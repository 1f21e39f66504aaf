// `fan-polls-hydrate.js` in the widget build: Lit, its hydration support and the element code an open card needs to
// take a tap, in one module with no static import (the recommended snippet preloads it, and nothing can evaluate Lit's
// `lit-element` before the hydration support); what the element code imports with `import()` (the voting's details
// chunk, the other languages, the list, the live stream, the extension's bridge) in chunks of its own,
// `chunks/hydrate-<name>-<hash>.js`, which import Lit from it. Templates are not minified here: Lit hydrates a
// template only when its strings are the ones the server rendered (the server renders from the sources), and the
// minifier rewrites them.
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
      rolldownOptions: {
        preserveEntrySignatures: 'allow-extension',
        output: { minify: true, comments: false, chunkFileNames: 'chunks/hydrate-[name]-[hash].js' },
      },
    },
  };
}
