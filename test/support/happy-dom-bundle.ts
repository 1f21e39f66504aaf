// happy-dom as one module file, for the element tests' environment (test/support/happy-dom-environment.ts). Every
// element test file starts in a fresh worker that loads happy-dom anew; its 600 modules take about three times as
// long to load as the same code in one file. The bundle holds happy-dom's own modules only: its dependencies stay
// imports, resolved from this repository's node_modules, where the bundle is kept (one per happy-dom version).
import { existsSync, readFileSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const happyDomVersion = (
  JSON.parse(readFileSync(`${root}node_modules/happy-dom/package.json`, 'utf8')) as { version: string }
).version;
const bundleFolder = `${root}node_modules/.cache/fan-polls-tests`;

/** Where the bundle of the installed happy-dom is (or will be). */
export const happyDomBundle = `${bundleFolder}/happy-dom-${happyDomVersion}.js`;

/** Vitest's global setup of the element tests: builds the bundle once per happy-dom version. */
export default async function bundleHappyDom(): Promise<void> {
  if (existsSync(happyDomBundle)) return;
  // Written beside it, then renamed: a run beside this one never loads half a file.
  const building = `${bundleFolder}/building-${String(process.pid)}`;
  // Vite only here, in the main process: the environment, in every worker, reads the bundle's path alone.
  const { build } = await import('vite');
  await build({
    configFile: false,
    logLevel: 'warn',
    root,
    publicDir: false,
    build: {
      ssr: `${root}node_modules/happy-dom/lib/index.js`,
      outDir: building,
      emptyOutDir: true,
      minify: false,
      target: 'node20',
      reportCompressedSize: false,
      rolldownOptions: { output: { format: 'es', entryFileNames: 'happy-dom.js', codeSplitting: false } },
    },
  });
  await rename(`${building}/happy-dom.js`, happyDomBundle);
  await rm(building, { recursive: true, force: true });
}
