// The configurator's build: one page (`dist/configurator/index.html`) and its hashed script, Lit bundled in; the
// widget it previews is not bundled: the page loads it from the proxy, as a partner's page does.
import { fileURLToPath } from 'node:url';
import type { UserConfig } from 'vite';

/** `vite build --mode configurator`: `dist/configurator/`, served by the proxy at `/configurator/`. */
export function configuratorBuild(): UserConfig {
  return {
    root: fileURLToPath(new URL('.', import.meta.url)),
    base: './',
    publicDir: false,
    logLevel: 'warn',
    build: {
      outDir: fileURLToPath(new URL('../../dist/configurator/', import.meta.url)),
      emptyOutDir: true,
      target: 'es2022',
      // No inline polyfill or preload links: the page's CSP allows its own files only.
      modulePreload: false,
      reportCompressedSize: false,
    },
  };
}
