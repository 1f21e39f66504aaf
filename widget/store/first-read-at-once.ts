import { systemScheduler, type Scheduler } from '../../src/polls/scheduler.ts';

/**
 * The page store's clock when the entry prefetched its first read: that read starts in a microtask instead of a
 * timer, so that a card whose poll is already here renders it without waiting for a frame of its loading state. The
 * cards that subscribed in the same task still share it (a microtask runs once that task is done); every later read
 * waits for a timer as usual, so the store's batching is unchanged.
 */
export function firstReadAtOnce(clock: Scheduler = systemScheduler): Scheduler {
  let atOnce = true;
  return {
    ...clock,
    setTimeout(callback, delayMs) {
      if (!atOnce || delayMs > 0) return clock.setTimeout(callback, delayMs);
      let cancelled = false;
      queueMicrotask(() => {
        if (cancelled) return;
        atOnce = false;
        callback();
      });
      // A function: no timer handle is one (a number in browsers, an object in Node).
      return () => {
        cancelled = true;
      };
    },
    clearTimeout(handle) {
      if (typeof handle === 'function') (handle as () => void)();
      else clock.clearTimeout(handle);
    },
  };
}
