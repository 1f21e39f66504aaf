import type { ExecutionContext } from 'hono';

/**
 * The app's `waitUntil` on Workers. The app is built once per isolate and its background work (a poll refresh) starts
 * deep inside a request without that request's context, so the work is collected here and each request, once the
 * app has answered it, hands everything still pending to its own `ctx.waitUntil`: work a request starts is pending
 * when it answers, so its own context keeps it alive.
 */
export function backgroundWork(): {
  readonly waitUntil: (work: Promise<unknown>) => void;
  handOver(ctx: ExecutionContext): void;
} {
  const pending = new Set<Promise<unknown>>();
  return {
    waitUntil(work) {
      const settled = work.then(
        () => undefined,
        () => undefined,
      );
      pending.add(settled);
      void settled.then(() => pending.delete(settled));
    },
    handOver(ctx) {
      if (pending.size > 0) ctx.waitUntil(Promise.all(pending));
    },
  };
}
