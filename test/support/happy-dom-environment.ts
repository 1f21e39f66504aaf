// The element tests' environment: Vitest's own `happy-dom` environment (a GlobalWindow per test file, its globals on
// `globalThis`, taken off again at the end), loading happy-dom from one bundled file instead of its 600 modules
// (test/support/happy-dom-bundle.ts, built by the dom project's global setup).
import { pathToFileURL } from 'node:url';
import type * as HappyDomModule from 'happy-dom';
import { populateGlobal, type Environment } from 'vitest/runtime';
import { happyDomBundle } from './happy-dom-bundle.ts';

type HappyDom = typeof HappyDomModule;
type HappyDomOptions = ConstructorParameters<HappyDom['GlobalWindow']>[0] & {
  settings?: Record<string, unknown>;
};

export default {
  name: 'happy-dom',
  viteEnvironment: 'client',
  async setup(global: typeof globalThis, options: Record<string, unknown>) {
    const happyDOM = (options['happyDOM'] ?? {}) as HappyDomOptions & { url?: string };
    const { GlobalWindow } = (await import(
      /* @vite-ignore */ pathToFileURL(happyDomBundle).href
    )) as HappyDom;
    const win = new GlobalWindow({
      ...happyDOM,
      console: global.console,
      url: happyDOM.url ?? 'http://localhost:3000',
      settings: { ...happyDOM.settings, disableErrorCapturing: true },
    });
    const { keys, originals } = populateGlobal(global, win, {
      bindFunctions: true,
      additionalKeys: [
        'Request',
        'Response',
        'MessagePort',
        'fetch',
        'Headers',
        'AbortController',
        'AbortSignal',
        'URL',
        'URLSearchParams',
        'FormData',
      ],
    });
    return {
      async teardown(global: Record<string | symbol, unknown>) {
        await win.happyDOM.abort();
        win.close();
        for (const key of keys) Reflect.deleteProperty(global, key);
        for (const [key, value] of originals) global[key] = value;
      },
    };
  },
} satisfies Environment;
