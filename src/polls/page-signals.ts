/** Whether the page may fetch: visible and online. Injectable so that Node tests can drive both. */
export interface PageSignals {
  isVisible(): boolean;
  isOnline(): boolean;
  /** Calls `listener` whenever either may have changed; returns a function that stops it. */
  onChange(listener: () => void): () => void;
}

/**
 * The page's own signals: `document.visibilityState` with `visibilitychange`, `navigator.onLine` with the window's
 * `online`/`offline` events. Where there is no document (Node, workers) the page counts as visible and online.
 */
export function browserPageSignals(): PageSignals {
  const doc = typeof document === 'undefined' ? undefined : document;
  const win = typeof window === 'undefined' ? undefined : window;
  return {
    isVisible: () => doc?.visibilityState !== 'hidden',
    isOnline: () => (typeof navigator === 'undefined' ? true : navigator.onLine),
    onChange(listener) {
      doc?.addEventListener('visibilitychange', listener);
      win?.addEventListener('online', listener);
      win?.addEventListener('offline', listener);
      return () => {
        doc?.removeEventListener('visibilitychange', listener);
        win?.removeEventListener('online', listener);
        win?.removeEventListener('offline', listener);
      };
    },
  };
}

/** Signals set by hand, for tests and benchmarks. */
export class ManualPageSignals implements PageSignals {
  #visible = true;
  #online = true;
  readonly #listeners = new Set<() => void>();

  isVisible(): boolean {
    return this.#visible;
  }

  isOnline(): boolean {
    return this.#online;
  }

  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  get listenerCount(): number {
    return this.#listeners.size;
  }

  setVisible(visible: boolean): void {
    this.#visible = visible;
    this.#notify();
  }

  setOnline(online: boolean): void {
    this.#online = online;
    this.#notify();
  }

  #notify(): void {
    for (const listener of [...this.#listeners]) listener();
  }
}
