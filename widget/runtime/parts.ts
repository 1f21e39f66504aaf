import type * as VotingPart from '../fan-poll/fan-voting.ts';
import type * as ListPart from '../fan-poll-list/list-view.ts';
import type * as FrenchPart from '../i18n/fr.ts';
import type * as LivePart from '../store/live-proxy-store.ts';
import { partFileName, runtimeGlobalName } from './runtime-global.ts';

/**
 * What loads after first paint, each its own file: voting (extension and proxy channels, the fan's actions), the
 * list element's body, every language but English, and the page's live store (after the first read).
 */
export interface PartModules {
  readonly voting: typeof VotingPart;
  readonly list: typeof ListPart;
  readonly fr: typeof FrenchPart;
  readonly live: typeof LivePart;
}
export type PartName = keyof PartModules;
export type PartLoader = (name: PartName) => Promise<unknown>;

interface Runtime {
  readonly m: object;
  parts?: Partial<Record<PartName, unknown>>;
}

let loader: PartLoader | undefined;
const loading = new Map<PartName, Promise<unknown>>();

/** How parts are fetched: script files in the script-tag build, `import()` where modules are bundled (tests). */
export function setPartLoader(next: PartLoader): void {
  loader ??= next;
}

/** The part, loaded once per page; a failed load is tried again on the next call. */
export function loadPart<N extends PartName>(name: N): Promise<PartModules[N]> {
  let promise = loading.get(name);
  if (!promise) {
    promise = loader ? loader(name) : Promise.reject(new Error('Fan Polls: no way to load parts.'));
    loading.set(name, promise);
    promise.catch(() => loading.delete(name));
  }
  return promise as Promise<PartModules[N]>;
}

function runtime(): Runtime | undefined {
  return (globalThis as unknown as Record<string, Runtime | undefined>)[runtimeGlobalName];
}

/** Makes the shared modules reachable for part scripts (first copy of this version wins). */
export function exposeRuntime(sharedModules: object): void {
  const global = globalThis as unknown as Record<string, Runtime | undefined>;
  global[runtimeGlobalName] ??= { m: sharedModules };
}

/** Run by a part's script: hands its module to whichever copy loaded it. */
export function registerPart(name: PartName, module: unknown): void {
  const shared = runtime();
  if (shared) (shared.parts ??= {})[name] = module;
}

/**
 * Loads a part as a classic script beside `base` (the loader's own URL). It carries the loader's nonce, so a
 * nonce-based (`strict-dynamic`) CSP accepts it as it accepted the loader; no module script, so no CORS is needed.
 */
export function scriptPartLoader(base: string, nonce: string | undefined): PartLoader {
  return (name) =>
    new Promise((resolve, reject) => {
      const script = document.createElement('script');
      script.src = new URL(partFileName(name), base).href;
      script.async = true;
      if (nonce) script.nonce = nonce;
      script.addEventListener('load', () => {
        const module = runtime()?.parts?.[name];
        if (module) resolve(module);
        else reject(new Error(`Fan Polls: ${script.src} did not register its part.`));
      });
      script.addEventListener('error', () => {
        script.remove();
        reject(new Error(`Fan Polls: could not load ${script.src}.`));
      });
      document.head.append(script);
    });
}
