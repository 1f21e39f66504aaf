// The server build: the partner proxy and the platform sandbox as plain JavaScript for Node (`vite build --mode
// server`), so that production runs `node dist/proxy/main.js` after `npm ci --omit=dev`, with no TypeScript runner.
// Packages stay external (an SSR build's default): they come from `dependencies` at run time.
import { fileURLToPath } from 'node:url';
import type { UserConfig } from 'vite';

const root = fileURLToPath(new URL('..', import.meta.url));

export function serverBuild(): UserConfig {
  return {
    publicDir: false,
    logLevel: 'warn',
    build: {
      ssr: true,
      outDir: `${root}dist`,
      // dist/ also holds the widget and the extension, built separately.
      emptyOutDir: false,
      target: 'node20',
      minify: false,
      sourcemap: true,
      reportCompressedSize: false,
      rolldownOptions: {
        input: {
          'proxy/main': `${root}src/proxy/main.ts`,
          'sandbox/main': `${root}src/sandbox/main.ts`,
        },
        output: {
          format: 'es',
          entryFileNames: '[name].js',
          // One folder deep, like the entries: `../widget/` from any of them is dist/widget/.
          chunkFileNames: 'server/[name]-[hash].js',
        },
      },
    },
  };
}
