/** Dispatches a `message` event on this window as if `source`, on `origin`, had posted `data`. */
export function messageFrom(source: unknown, origin: string, data: unknown): void {
  window.dispatchEvent(new MessageEvent('message', { data, origin, source: source as Window }));
}
