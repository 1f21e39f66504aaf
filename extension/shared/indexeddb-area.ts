import type { StorageAreaLike } from './typed-storage.ts';

/**
 * A key-value storage area in the extension's own IndexedDB. Content scripts run with the page's origin, so they
 * (and the page) can neither read nor write it, unlike `storage.local`. It holds the refresh token, the approved
 * sites and the settings (the proxy URL decides where the refresh token is sent, so it must not be writable by a
 * content script either). It outlives the service worker and a browser restart.
 */
export class IndexedDbArea implements StorageAreaLike {
  #database: Promise<IDBDatabase> | undefined;

  constructor(
    private readonly databaseName = 'fan-polls',
    private readonly storeName = 'vault',
    private readonly factory: () => IDBFactory = () => indexedDB,
  ) {}

  async get(keys: string | string[]): Promise<Record<string, unknown>> {
    const names = typeof keys === 'string' ? [keys] : keys;
    const values = await this.#run('readonly', (store) => names.map((key) => store.get(key)));
    const result: Record<string, unknown> = {};
    names.forEach((key, index) => {
      if (values[index] !== undefined) result[key] = values[index];
    });
    return result;
  }

  async set(items: Record<string, unknown>): Promise<void> {
    await this.#run('readwrite', (store) =>
      Object.entries(items).map(([key, value]) => store.put(value, key)),
    );
  }

  async remove(keys: string | string[]): Promise<void> {
    await this.#run('readwrite', (store) =>
      (typeof keys === 'string' ? [keys] : keys).map((key) => store.delete(key)),
    );
  }

  #open(): Promise<IDBDatabase> {
    this.#database ??= new Promise((resolve, reject) => {
      const request = this.factory().open(this.databaseName, 1);
      request.onupgradeneeded = () => request.result.createObjectStore(this.storeName);
      request.onsuccess = () => {
        resolve(request.result);
      };
      request.onerror = () => {
        reject(request.error ?? new Error('IndexedDB could not be opened'));
      };
    });
    return this.#database;
  }

  async #run(
    mode: IDBTransactionMode,
    operation: (store: IDBObjectStore) => IDBRequest[],
  ): Promise<unknown[]> {
    const database = await this.#open();
    return new Promise((resolve, reject) => {
      const transaction = database.transaction(this.storeName, mode);
      const requests = operation(transaction.objectStore(this.storeName));
      transaction.oncomplete = () => {
        resolve(requests.map((request) => request.result as unknown));
      };
      transaction.onerror = () => {
        reject(transaction.error ?? new Error('IndexedDB transaction failed'));
      };
      transaction.onabort = () => {
        reject(transaction.error ?? new Error('IndexedDB transaction aborted'));
      };
    });
  }
}
