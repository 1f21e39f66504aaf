// The configurator's build: one page (`dist/configurator/index.html`) and its hashed script, Lit bundled in; the
// widget it previews is not bundled: the page loads it from the proxy, as a partner's page does.
import { fileURLToPath } from 'node:url';
import type { UserConfig } from 'vite';
import { precompressFolder } from '../build/precompressed-files.ts';

const outDir = fileURLToPath(new URL('../../dist/configurator/', import.meta.url));

/** `vite build --mode configurator`: `dist/configurator/`, served by the proxy at `/configurator/`. */
export function configuratorBuild(): UserConfig {
  return {
    root: fileURLToPath(new URL('.', import.meta.url)),
    base: './',
    publicDir: false,
    logLevel: 'warn',
    plugins: [
      {
        name: 'fan-polls-precompressed-copies',
        apply: 'build',
        // The proxy serves these Brotli and gzip copies to clients that take them.
        closeBundle: async () => {
          await precompressFolder(outDir);
        },
      },
    ],
    build: {
      outDir,
      emptyOutDir: true,
      target: 'es2022',
      // No inline polyfill or preload links: the page's CSP allows its own files only.
      modulePreload: false,
      reportCompressedSize: false,
    },
  };
}
