/**
 * Everything an extension has stored, as text: `storage.local`, `storage.session` and the vault in its IndexedDB.
 * Runs inside an extension context (passed to a driver's `evaluate`), so it refers only to that context's globals:
 * `browser` in Firefox, `chrome` in Chromium.
 */
export async function dumpExtensionStorage(): Promise<string> {
  interface StorageArea {
    get(keys: null): Promise<Record<string, unknown>>;
  }
  const scope = globalThis as unknown as {
    browser?: { storage: { local: StorageArea; session: StorageArea } };
    chrome?: { storage: { local: StorageArea; session: StorageArea } };
  };
  const api = scope.browser ?? scope.chrome;
  if (!api) throw new Error('Not an extension context.');
  const local = await api.storage.local.get(null);
  const session = await api.storage.session.get(null);
  const idb = await new Promise<unknown[]>((resolve, reject) => {
    const open = indexedDB.open('fan-polls', 1);
    open.onerror = () => {
      reject(new Error(String(open.error)));
    };
    open.onsuccess = () => {
      const request = open.result.transaction('vault').objectStore('vault').getAll();
      request.onsuccess = () => {
        resolve(request.result);
      };
      request.onerror = () => {
        reject(new Error(String(request.error)));
      };
    };
  });
  return JSON.stringify({ local, session, idb });
}
