import type { PlatformError } from '../platform/errors.ts';
import type { Poll } from '../platform/types.ts';
import { backoffDelay, defaultBackoff, type BackoffSettings } from './backoff.ts';
import { deepEqual } from './deep-equal.ts';
import type { LivePacer, LivePollState, MakePacer, PacerHost } from './live-store-core.ts';
import { defaultPace, nextRead, type PaceSettings } from './poll-pace.ts';

export interface AdaptivePacerOptions {
  readonly pace?: Partial<PaceSettings>;
  readonly backoff?: Partial<BackoffSettings>;
  /** For the backoff's jitter; `Math.random` by default. */
  readonly random?: () => number;
}

/**
 * The live store's pacing: one timer for the page; each poll read at its phase's pace and at its next phase change;
 * polls due within half their pace ride along with a read that happens anyway; failures back off with full jitter and
 * honour the platform's `Retry-After`; a read that brings an equal poll is no news.
 */
export function adaptivePacer(options: AdaptivePacerOptions = {}): MakePacer {
  return (host) => new AdaptivePacer(host, options);
}

class AdaptivePacer implements LivePacer {
  readonly #host: PacerHost;
  readonly #pace: PaceSettings;
  readonly #backoff: BackoffSettings;
  readonly #random: () => number;
  #timer: unknown;
  #timerAt: number | undefined;
  #stopped = false;
  #failuresInARow = 0;
  /** No read before this instant: the backoff after a failure. */
  #backoffUntil = 0;
  /** No read before this instant, even on `refresh()`: the platform's `Retry-After`. */
  #throttledUntil = 0;

  constructor(host: PacerHost, options: AdaptivePacerOptions) {
    this.#host = host;
    this.#pace = { ...defaultPace, ...options.pace };
    this.#backoff = { ...defaultBackoff, ...options.backoff };
    this.#random = options.random ?? Math.random;
  }

  changed(): void {
    this.#reschedule();
  }

  dropBackoff(): void {
    this.#backoffUntil = 0;
  }

  nextRead(
    poll: Poll | undefined,
    readAt: number,
    freshForMs?: number,
  ): { at: number | undefined; paceMs: number } {
    if (poll === undefined) return { at: readAt + this.#pace.notFoundMs, paceMs: this.#pace.notFoundMs };
    return nextRead(poll, readAt, this.#pace, freshForMs);
  }

  afterRead(failures: readonly PlatformError[], readAt: number): void {
    if (failures.length === 0) {
      this.#failuresInARow = 0;
      this.#backoffUntil = 0;
      return;
    }
    this.#failuresInARow += 1;
    this.#backoffUntil = readAt + backoffDelay(this.#failuresInARow, this.#backoff, this.#random);
    const retryTimes = failures.flatMap((error) =>
      error.retryAt === undefined ? [] : [error.retryAt.getTime()],
    );
    if (retryTimes.length > 0) this.#throttledUntil = Math.max(this.#throttledUntil, ...retryTimes);
  }

  same(a: LivePollState, b: LivePollState): boolean {
    return sameState(a, b);
  }

  stop(): void {
    this.#stopped = true;
    this.#clearTimer();
  }

  #reschedule(): void {
    if (this.#stopped || this.#host.busy()) return;
    const dueTimes = [...this.#host.entries.values()].flatMap((entry) =>
      entry.listeners.size > 0 && entry.dueAt !== undefined ? [entry.dueAt] : [],
    );
    if (!this.#host.active() || dueTimes.length === 0) {
      this.#clearTimer();
      return;
    }
    const at = Math.max(Math.min(...dueTimes), this.#backoffUntil, this.#throttledUntil);
    if (this.#timer !== undefined && this.#timerAt === at) return;
    this.#clearTimer();
    this.#timerAt = at;
    this.#timer = this.#host.scheduler.setTimeout(
      () => {
        this.#timer = undefined;
        this.#timerAt = undefined;
        this.#tick();
      },
      Math.max(0, at - this.#host.scheduler.now()),
    );
  }

  #clearTimer(): void {
    if (this.#timer !== undefined) this.#host.scheduler.clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#timerAt = undefined;
  }

  #tick(): void {
    if (this.#stopped || this.#host.busy() || !this.#host.active()) return;
    const now = this.#host.scheduler.now();
    if (now < Math.max(this.#backoffUntil, this.#throttledUntil)) {
      this.#reschedule();
      return;
    }
    // Due polls, and those due within half their pace: they ride along, which keeps the page's polls in step.
    const ids = [...this.#host.entries]
      .filter(
        ([, entry]) =>
          entry.listeners.size > 0 && entry.dueAt !== undefined && entry.dueAt <= now + entry.paceMs / 2,
      )
      .map(([id]) => id);
    if (ids.length === 0) {
      this.#reschedule();
      return;
    }
    void this.#host.read(ids);
  }
}

/** Equal for a listener: same status, same poll by value, same error code and retry instant. */
function sameState(a: LivePollState, b: LivePollState): boolean {
  if (a.status === 'loading' || b.status === 'loading') return a.status === b.status;
  if (a.status === 'ready' && b.status === 'ready') return deepEqual(a.poll, b.poll);
  if (a.status === 'error' && b.status === 'error') {
    return (
      a.error.code === b.error.code &&
      a.error.retryAt?.getTime() === b.error.retryAt?.getTime() &&
      deepEqual(a.poll, b.poll)
    );
  }
  return false;
}
