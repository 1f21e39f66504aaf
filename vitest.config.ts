// Three kinds of test: fast unit tests in Node, element tests in happy-dom, and browser tests in real engines (the
// widget's and the journey's in `browser` and `browser-waits`, the extension's in `extension`: `npm test` runs them in
// two streams, see `src/dev/run-tests.ts`). A browser project runs one file at a time.
import { defineConfig } from 'vitest/config';

const extensionFiles = 'test/browser/extension-*.test.ts';
/**
 * Browser files that mostly wait out a deadline or a refresh window (the vote's 8 s route deadline, the proxy's
 * window, the cards' read pace), not the CPU: `npm test` runs them in its other stream, after `unit` and `extension`,
 * when the cores have time to spare, so that both streams end together.
 */
const waitingBrowserFiles = [
  'test/browser/widget-slow-vote.test.ts',
  'test/browser/widget-live-shares.test.ts',
  'test/browser/widget-live-stream.test.ts',
  'test/browser/widget-embeds.test.ts',
];
/**
 * Node and element tests take well under a second each; the margin is for a 2-core runner that is also building.
 * Two files at a time: Vitest's default is one fewer than the cores (one on 2 cores), and most integration files
 * wait on servers, deadlines and refresh windows rather than use a core.
 */
const nodeFiles = { testTimeout: 20_000, hookTimeout: 20_000, maxWorkers: 2 } as const;
/**
 * Files that share no module state a test relies on (servers and browsers are started per file, and stopped by it)
 * run without isolation: each worker imports the proxy, the sandbox and their libraries once instead of once per file
 * (evaluating them was a third of the unit files' time, and a tenth of the browser files').
 */
const sharedModules = { isolate: false } as const;
const browserFiles = {
  environment: 'node',
  testTimeout: 60_000,
  hookTimeout: 60_000,
  fileParallelism: false,
  ...sharedModules,
} as const;

export default defineConfig({
  test: {
    setupFiles: ['test/support/no-external-network.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          environment: 'node',
          ...nodeFiles,
          ...sharedModules,
          include: ['src/**/*.test.ts', 'test/integration/**/*.test.ts', 'test/support/**/*.test.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'dom',
          // happy-dom, loaded from one bundled file: loading it is most of an element file's time.
          environment: './test/support/happy-dom-environment.ts',
          globalSetup: ['test/support/happy-dom-bundle.ts'],
          ...nodeFiles,
          // Each file still gets its own worker and happy-dom window (a fresh custom-elements registry and globals);
          // a worker thread starts sooner than a process.
          pool: 'threads',
          include: ['widget/**/*.test.ts', 'extension/**/*.test.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          ...browserFiles,
          include: ['test/browser/**/*.test.ts'],
          exclude: [extensionFiles, ...waitingBrowserFiles],
        },
      },
      {
        extends: true,
        test: { name: 'browser-waits', ...browserFiles, include: waitingBrowserFiles },
      },
      {
        extends: true,
        test: { name: 'extension', ...browserFiles, include: [extensionFiles] },
      },
    ],
  },
});
