/**
 * A signal that aborts after `ms` (with a `TimeoutError`, as `AbortSignal.timeout` does) or as soon as one of
 * `parents` aborts (with its reason). Built on an `AbortController` whose timer holds it, not on
 * `AbortSignal.timeout`/`AbortSignal.any`: Node 20 holds those signals weakly, and after a garbage collection a fetch
 * waiting on them may never be aborted (nodejs/node#57736). The proxy's vote route missed its 8 s deadline so, about
 * one test run in three. Call `clear()` once the work is done.
 */
export interface Deadline {
  readonly signal: AbortSignal;
  clear(): void;
}

export function deadline(ms: number, ...parents: readonly (AbortSignal | undefined)[]): Deadline {
  const controller = new AbortController();
  const abort = (reason: unknown) => {
    if (!controller.signal.aborted) controller.abort(reason);
  };
  const timer = setTimeout(() => {
    abort(new DOMException('The operation timed out.', 'TimeoutError'));
  }, ms);
  const followed: [AbortSignal, () => void][] = [];
  for (const parent of parents) {
    if (parent === undefined) continue;
    if (parent.aborted) {
      abort(parent.reason);
      break;
    }
    const onAbort = () => {
      abort(parent.reason);
    };
    parent.addEventListener('abort', onAbort, { once: true });
    followed.push([parent, onAbort]);
  }
  return {
    signal: controller.signal,
    clear: () => {
      clearTimeout(timer);
      for (const [parent, onAbort] of followed) parent.removeEventListener('abort', onAbort);
    },
  };
}
