/** An element that re-renders when a lazily imported part it waits for arrives. */
interface Waiting {
  requestUpdate(): void;
}

export interface LazyPart<T> {
  /**
   * The module once it is here. Before: given `element`, starts the import and re-renders `element` when it arrives;
   * without one, only looks (no import: a first paint that does not need the part does not ask for it).
   */
  get(element?: Waiting): T | undefined;
  /** The module, imported if need be. */
  load(): Promise<T>;
}

/**
 * A part of the element code an open card's first paint does not need, imported on first use (the bundler makes it a
 * chunk of its own). A failed import (offline, a deploy meanwhile) is tried again on the next use.
 */
export function lazyPart<T>(importPart: () => Promise<T>): LazyPart<T> {
  let module: T | undefined;
  let loading: Promise<T> | undefined;
  const waiting = new Set<Waiting>();
  const load = (): Promise<T> =>
    (loading ??= importPart().then(
      (loaded) => {
        module = loaded;
        for (const each of waiting) each.requestUpdate();
        waiting.clear();
        return loaded;
      },
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    ));
  return {
    get(element) {
      if (module || !element) return module;
      waiting.add(element);
      load().catch((error: unknown) => {
        console.error('Fan Polls: a part of the card could not load.', error);
      });
      return undefined;
    },
    load,
  };
}
