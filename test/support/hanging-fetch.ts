// A fetch whose server never answers: it settles only when the caller's signal aborts, as a real fetch does, so a
// test can see a timeout without waiting on a real socket.
import type { FetchLike } from '../../src/platform/http.ts';

export const hangingFetch: FetchLike = (_input, init) =>
  new Promise((_resolve, reject) => {
    const signal = init?.signal;
    if (!signal) return;
    if (signal.aborted) reject(signal.reason as Error);
    else
      signal.addEventListener('abort', () => {
        reject(signal.reason as Error);
      });
  });
