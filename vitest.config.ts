// Three kinds of test: fast unit tests in Node, element tests in happy-dom, and browser tests in real engines (the
// widget's and the journey's in `browser` and `browser-waits`, the extension's in `extension`: `npm test` runs them in
// two streams, see `src/dev/run-tests.ts`). A browser project runs one file at a time.
import { defineConfig } from 'vitest/config';

const extensionFiles = 'test/browser/extension-*.test.ts';
/**
 * Browser files that mostly wait out a deadline or a refresh window (the vote's 8 s route deadline, the proxy's 5 s
 * window), not the CPU: `npm test` runs them in its shorter stream, after `extension`, so both streams end together.
 */
const waitingBrowserFiles = [
  'test/browser/widget-slow-vote.test.ts',
  'test/browser/widget-live-shares.test.ts',
];
/** Node and element tests take well under a second each; the margin is for a 2-core runner that is also building. */
const nodeFiles = { testTimeout: 20_000, hookTimeout: 20_000 } as const;
const browserFiles = {
  environment: 'node',
  testTimeout: 60_000,
  hookTimeout: 60_000,
  fileParallelism: false,
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
          include: ['src/**/*.test.ts', 'test/integration/**/*.test.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'dom',
          environment: 'happy-dom',
          ...nodeFiles,
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
