import { errorFromFetchFailure, PlatformError } from '../platform/errors.ts';
import type { Poll } from '../platform/types.ts';
import { backoffDelay, defaultBackoff, type BackoffSettings } from './backoff.ts';
import { deepEqual } from './deep-equal.ts';
import { browserPageSignals, type PageSignals } from './page-signals.ts';
import { defaultPace, nextRead, type PaceSettings } from './poll-pace.ts';
import { systemScheduler, type Scheduler } from './scheduler.ts';

export type LivePollState =
  | { readonly status: 'loading' }
  /** `fetchedAt`: the read that produced this state; a read that finds nothing new does not replace it. */
  | { readonly status: 'ready'; readonly poll: Poll; readonly fetchedAt: number }
  /** `poll`: the last good read, if any, so a card can keep showing it. */
  | { readonly status: 'error'; readonly error: PlatformError; readonly poll?: Poll };

export type LivePollListener = (state: LivePollState) => void;

export interface LivePollStore {
  /** The listener hears the current state at once, then every real change. Returns the unsubscribe. */
  subscribe(pollId: string, listener: LivePollListener): () => void;
  /** Reads one poll (or every subscribed poll) at the next opportunity: now, unless hidden, offline or throttled. */
  refresh(pollId?: string): void;
  /** Stops the timer and forgets every poll and listener. */
  dispose(): void;
}

export type FetchPolls = (ids: readonly string[]) => Promise<readonly Poll[]>;

export interface LivePollStoreOptions {
  /** One batched read of these poll ids (the proxy's `/api/polls?ids[]=`, or the platform client). */
  readonly fetchPolls: FetchPolls;
  readonly scheduler?: Scheduler;
  readonly signals?: PageSignals;
  readonly pace?: Partial<PaceSettings>;
  readonly backoff?: Partial<BackoffSettings>;
  /** Most ids in one request; a tick with more sends several requests at once. Default 50. */
  readonly chunkSize?: number;
  /** For the backoff's jitter; `Math.random` by default. */
  readonly random?: () => number;
  /** A listener that throws is reported here (default `console.error`) and the others still hear the change. */
  readonly onListenerError?: (error: unknown) => void;
}

interface Entry {
  readonly listeners: Set<LivePollListener>;
  state: LivePollState;
  lastGood: Poll | undefined;
  /** When the poll is due for a read; undefined when it never changes again. */
  dueAt: number | undefined;
  paceMs: number;
}

/**
 * The page's live poll store: every card subscribes here, and all of them share one timer and one batched read per
 * tick. Pace follows each poll's phase; nothing is read while the page is hidden or offline; failures back off with
 * full jitter and honour the platform's `Retry-After`.
 */
export function createLivePollStore(options: LivePollStoreOptions): LivePollStore {
  return new PageLivePollStore(options);
}

class PageLivePollStore implements LivePollStore {
  readonly #fetchPolls: FetchPolls;
  readonly #scheduler: Scheduler;
  readonly #signals: PageSignals;
  readonly #pace: PaceSettings;
  readonly #backoff: BackoffSettings;
  readonly #chunkSize: number;
  readonly #random: () => number;
  readonly #onListenerError: (error: unknown) => void;
  readonly #entries = new Map<string, Entry>();
  readonly #stopSignals: () => void;

  #timer: unknown;
  #timerAt: number | undefined;
  #inFlight = false;
  #disposed = false;
  #failuresInARow = 0;
  /** No read before this instant: the backoff after a failure. */
  #backoffUntil = 0;
  /** No read before this instant, even on `refresh()`: the platform's `Retry-After`. */
  #throttledUntil = 0;
  #wasOnline: boolean;

  constructor(options: LivePollStoreOptions) {
    this.#fetchPolls = options.fetchPolls;
    this.#scheduler = options.scheduler ?? systemScheduler;
    this.#signals = options.signals ?? browserPageSignals();
    this.#pace = { ...defaultPace, ...options.pace };
    this.#backoff = { ...defaultBackoff, ...options.backoff };
    this.#chunkSize = Math.max(1, Math.trunc(options.chunkSize ?? 50));
    this.#random = options.random ?? Math.random;
    this.#onListenerError =
      options.onListenerError ??
      ((error) => {
        console.error(error);
      });
    this.#wasOnline = this.#signals.isOnline();
    this.#stopSignals = this.#signals.onChange(() => {
      this.#signalsChanged();
    });
  }

  subscribe(pollId: string, listener: LivePollListener): () => void {
    if (this.#disposed) throw new Error('This live poll store was disposed.');
    let entry = this.#entries.get(pollId);
    if (entry === undefined) {
      entry = {
        listeners: new Set(),
        state: { status: 'loading' },
        lastGood: undefined,
        dueAt: this.#scheduler.now(),
        paceMs: 0,
      };
      this.#entries.set(pollId, entry);
    }
    const subscribed = entry;
    // A wrapper per subscription: the same function subscribed twice is two subscriptions, removed one by one.
    const subscription: LivePollListener = (state) => {
      listener(state);
    };
    subscribed.listeners.add(subscription);
    this.#deliver(subscription, subscribed.state);
    this.#reschedule();
    return () => {
      if (!subscribed.listeners.delete(subscription)) return;
      this.#reschedule();
    };
  }

  refresh(pollId?: string): void {
    if (this.#disposed) return;
    const now = this.#scheduler.now();
    const targets =
      pollId === undefined
        ? [...this.#entries.values()]
        : [this.#entries.get(pollId)].filter((entry) => entry !== undefined);
    for (const entry of targets) if (entry.listeners.size > 0) entry.dueAt = now;
    this.#backoffUntil = 0;
    this.#reschedule();
  }

  dispose(): void {
    this.#disposed = true;
    this.#clearTimer();
    this.#stopSignals();
    this.#entries.clear();
  }

  /** A method, not the field, because the store can be disposed while a read is awaited. */
  #isDisposed(): boolean {
    return this.#disposed;
  }

  #active(): boolean {
    return this.#signals.isVisible() && this.#signals.isOnline();
  }

  #signalsChanged(): void {
    const online = this.#signals.isOnline();
    // Back online: the failures were most likely the lost connection, so try again now (Retry-After still holds).
    if (online && !this.#wasOnline) this.#backoffUntil = 0;
    this.#wasOnline = online;
    this.#reschedule();
  }

  #watched(): Entry[] {
    return [...this.#entries.values()].filter(
      (entry) => entry.listeners.size > 0 && entry.dueAt !== undefined,
    );
  }

  #reschedule(): void {
    if (this.#disposed || this.#inFlight) return;
    const dueTimes = this.#watched().map((entry) => entry.dueAt ?? Number.POSITIVE_INFINITY);
    if (!this.#active() || dueTimes.length === 0) {
      this.#clearTimer();
      return;
    }
    const at = Math.max(Math.min(...dueTimes), this.#backoffUntil, this.#throttledUntil);
    if (this.#timer !== undefined && this.#timerAt === at) return;
    this.#clearTimer();
    this.#timerAt = at;
    this.#timer = this.#scheduler.setTimeout(
      () => {
        this.#timer = undefined;
        this.#timerAt = undefined;
        void this.#tick();
      },
      Math.max(0, at - this.#scheduler.now()),
    );
  }

  #clearTimer(): void {
    if (this.#timer !== undefined) this.#scheduler.clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#timerAt = undefined;
  }

  async #tick(): Promise<void> {
    if (this.#disposed || this.#inFlight || !this.#active()) return;
    const now = this.#scheduler.now();
    if (now < Math.max(this.#backoffUntil, this.#throttledUntil)) {
      this.#reschedule();
      return;
    }
    // Due polls, and those due within half their pace: they ride along, which keeps the page's polls in step.
    const ids = [...this.#entries]
      .filter(
        ([, entry]) =>
          entry.listeners.size > 0 && entry.dueAt !== undefined && entry.dueAt <= now + entry.paceMs / 2,
      )
      .map(([id]) => id);
    if (ids.length === 0) {
      this.#reschedule();
      return;
    }

    this.#inFlight = true;
    const chunks: string[][] = [];
    for (let start = 0; start < ids.length; start += this.#chunkSize)
      chunks.push(ids.slice(start, start + this.#chunkSize));
    const results = await Promise.allSettled(chunks.map((chunk) => this.#read(chunk)));
    this.#inFlight = false;
    if (this.#isDisposed()) return;

    const readAt = this.#scheduler.now();
    const failures: PlatformError[] = [];
    results.forEach((result, index) => {
      const chunk = chunks[index] ?? [];
      if (result.status === 'fulfilled') this.#applyPolls(chunk, result.value, readAt);
      else failures.push(this.#applyFailure(chunk, result.reason));
    });
    this.#afterRead(failures, readAt);
    this.#reschedule();
  }

  async #read(ids: readonly string[]): Promise<readonly Poll[]> {
    const polls: unknown = await this.#fetchPolls(ids);
    if (!Array.isArray(polls)) {
      throw new PlatformError('malformed_response', 'The poll source did not answer a list of polls.');
    }
    return polls as readonly Poll[];
  }

  #applyPolls(requested: readonly string[], polls: readonly Poll[], readAt: number): void {
    // Uuids compare without case: sources lower-case the ids they send (the proxy's cache key is canonical).
    const byId = new Map(polls.map((poll) => [poll.id.toLowerCase(), poll]));
    for (const id of requested) {
      const entry = this.#entries.get(id);
      if (entry === undefined) continue;
      const poll = byId.get(id.toLowerCase());
      if (poll === undefined) {
        entry.dueAt = readAt + this.#pace.notFoundMs;
        entry.paceMs = this.#pace.notFoundMs;
        const error = new PlatformError('not_found', 'The platform did not return this poll.');
        this.#setState(entry, {
          status: 'error',
          error,
          ...(entry.lastGood ? { poll: entry.lastGood } : {}),
        });
        continue;
      }
      const next = nextRead(poll, readAt, this.#pace);
      entry.dueAt = next.at;
      entry.paceMs = next.paceMs;
      entry.lastGood = poll;
      this.#setState(entry, { status: 'ready', poll, fetchedAt: readAt });
    }
  }

  #applyFailure(requested: readonly string[], reason: unknown): PlatformError {
    const error = errorFromFetchFailure(reason, 'Reading polls');
    for (const id of requested) {
      const entry = this.#entries.get(id);
      if (entry === undefined) continue;
      this.#setState(entry, { status: 'error', error, ...(entry.lastGood ? { poll: entry.lastGood } : {}) });
    }
    return error;
  }

  #afterRead(failures: readonly PlatformError[], readAt: number): void {
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

  #setState(entry: Entry, next: LivePollState): void {
    if (sameState(entry.state, next)) return;
    entry.state = next;
    for (const listener of [...entry.listeners]) this.#deliver(listener, next);
  }

  #deliver(listener: LivePollListener, state: LivePollState): void {
    try {
      listener(state);
    } catch (error) {
      this.#onListenerError(error);
    }
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
