// Bundles the React test app with Vite, as a partner's build would: React 19, and `fan-polls/react` from the built
// package (`dist/package/`), not from the widget's sources.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const root = fileURLToPath(new URL('../../../', import.meta.url));

/** Builds the app into a new temporary folder (`index.html`, `app.js`) and returns the folder. */
export async function buildReactApp(): Promise<string> {
  const outDir = await mkdtemp(join(tmpdir(), 'fan-polls-react-app-'));
  await build({
    configFile: false,
    logLevel: 'warn',
    mode: 'production',
    define: { 'process.env.NODE_ENV': '"production"' },
    resolve: { alias: { 'fan-polls/react': `${root}dist/package/react.js` } },
    build: {
      outDir,
      emptyOutDir: false,
      target: 'es2022',
      minify: false,
      lib: {
        entry: fileURLToPath(new URL('main.ts', import.meta.url)),
        formats: ['es'],
        fileName: () => 'app.js',
      },
    },
  });
  await writeFile(
    join(outDir, 'index.html'),
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>React app</title>' +
      '<script type="module" src="/app.js"></script></head><body><div id="root"></div></body></html>',
  );
  return outDir;
}
