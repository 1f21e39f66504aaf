import { errorFromFetchFailure, PlatformError } from '../platform/errors.ts';
import type { Poll } from '../platform/types.ts';
import { browserPageSignals, type PageSignals } from './page-signals.ts';
import { systemScheduler, type Scheduler } from './scheduler.ts';

/** What a listener sees of a failed read: a `PlatformError`, or any error with the same code and message. */
export type LivePollError = Pick<PlatformError, 'code' | 'message'> & { readonly retryAt?: Date | undefined };

export type LivePollState =
  | { readonly status: 'loading' }
  /** `fetchedAt`: the read that produced this state; a read that finds nothing new does not replace it. */
  | { readonly status: 'ready'; readonly poll: Poll; readonly fetchedAt: number }
  /** `poll`: the last good read, if any, so a card can keep showing it. */
  | { readonly status: 'error'; readonly error: LivePollError; readonly poll?: Poll };

export type LivePollListener = (state: LivePollState) => void;

export interface LivePollStore {
  /** The listener hears the current state at once, then every real change. Returns the unsubscribe. */
  subscribe(pollId: string, listener: LivePollListener): () => void;
  /** Reads one poll (or every subscribed poll) at the next opportunity: now, unless hidden, offline or throttled. */
  refresh(pollId?: string): void;
  /** Stops the timer and forgets every poll and listener. */
  dispose(): void;
}

/**
 * One batched read. A source that knows how long its answer stays the newest it can give says so in `freshForMs`
 * (the proxy's, from `Age`; `answer-freshness.ts`; NaN: unknown): the store reads open polls again when that answer is
 * replaced.
 */
export type FetchPolls = (ids: readonly string[]) => Promise<PollBatch>;
export type PollBatch = readonly Poll[] & { readonly freshForMs?: number };

export interface LiveStoreCoreOptions {
  /** One batched read of these poll ids (the proxy's `/api/polls?ids[]=`, or the platform client). */
  readonly fetchPolls: FetchPolls;
  readonly scheduler?: Scheduler;
  readonly signals?: PageSignals;
  /** Most ids in one request; a tick with more sends several requests at once. Default 50. */
  readonly chunkSize?: number;
  /** A listener that throws is reported here (default `console.error`) and the others still hear the change. */
  readonly onListenerError?: (error: unknown) => void;
}

export interface PollEntry {
  readonly listeners: Set<LivePollListener>;
  state: LivePollState;
  lastGood: Poll | undefined;
  /** When the poll is due for a read; undefined when no read is planned (it never changes again). */
  dueAt: number | undefined;
  /** The pace of the poll's phase, set by the pacer after each read. */
  paceMs: number;
  /** The last read that answered for this poll: when, and the poll (undefined: not returned). */
  lastRead: { readonly at: number; readonly poll: Poll | undefined } | undefined;
}

/** What a pacer sees of its store. */
export interface PacerHost {
  readonly scheduler: Scheduler;
  readonly entries: ReadonlyMap<string, PollEntry>;
  /** Visible and online: the page may read. */
  active(): boolean;
  /** A read is in flight (one at a time). */
  busy(): boolean;
  /** One batched read of these ids now (chunked); the store applies it, then calls `afterRead` and `changed`. */
  read(ids: readonly string[]): Promise<void>;
  /**
   * Polls that arrived without a read (the page's live stream): applied as a read's would be (each planned by
   * `nextRead`), then `changed`. Polls no card subscribed to are ignored.
   */
  push(polls: readonly Poll[]): void;
}

/** Decides when the store reads which polls, and which new states are news. */
export interface LivePacer {
  /** Subscriptions, due times or the page's signals changed: plan the next read. */
  changed(): void;
  /** `refresh()`, or the page came back online: the backoff is dropped (Retry-After still holds). */
  dropBackoff(): void;
  /** When a poll just read (undefined: not returned) is due again, and its phase's pace. */
  nextRead(
    poll: Poll | undefined,
    readAt: number,
    freshForMs?: number,
  ): { at: number | undefined; paceMs: number };
  afterRead(failures: readonly PlatformError[], readAt: number): void;
  /** Whether a listener would see nothing new in `b` after `a`. */
  same(a: LivePollState, b: LivePollState): boolean;
  stop(): void;
}

export type MakePacer = (host: PacerHost) => LivePacer;

/**
 * The page's live poll store: every card subscribes here, and all of them share one batched read per tick. When and
 * what it reads is the pacer's call (`adaptive-pacer.ts`: pace by phase, backoff, `Retry-After`); nothing is read
 * while the page is hidden or offline.
 */
export function createPacedLivePollStore(options: LiveStoreCoreOptions, make: MakePacer): LivePollStore {
  return new PageLivePollStore(options, make);
}

class PageLivePollStore implements LivePollStore, PacerHost {
  readonly #fetchPolls: FetchPolls;
  readonly scheduler: Scheduler;
  readonly #signals: PageSignals;
  readonly #chunkSize: number;
  readonly #onListenerError: (error: unknown) => void;
  readonly #entries = new Map<string, PollEntry>();
  readonly #stopSignals: () => void;
  readonly #pacer: LivePacer;
  #inFlight = false;
  #disposed = false;
  #wasOnline: boolean;

  constructor(options: LiveStoreCoreOptions, make: MakePacer) {
    this.#fetchPolls = options.fetchPolls;
    this.scheduler = options.scheduler ?? systemScheduler;
    this.#signals = options.signals ?? browserPageSignals();
    this.#chunkSize = Math.max(1, Math.trunc(options.chunkSize ?? 50));
    this.#onListenerError =
      options.onListenerError ??
      ((error) => {
        console.error(error);
      });
    this.#pacer = make(this);
    this.#wasOnline = this.#signals.isOnline();
    this.#stopSignals = this.#signals.onChange(() => {
      const online = this.#signals.isOnline();
      // Back online: the failures were most likely the lost connection, so try again now (Retry-After still holds).
      if (online && !this.#wasOnline) this.#pacer.dropBackoff();
      this.#wasOnline = online;
      this.#pacer.changed();
    });
  }

  get entries(): ReadonlyMap<string, PollEntry> {
    return this.#entries;
  }

  subscribe(pollId: string, listener: LivePollListener): () => void {
    if (this.#disposed) throw new Error('This live poll store was disposed.');
    let entry = this.#entries.get(pollId);
    if (entry === undefined) {
      entry = {
        listeners: new Set(),
        state: { status: 'loading' },
        lastGood: undefined,
        dueAt: this.scheduler.now(),
        paceMs: 0,
        lastRead: undefined,
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
    this.#changed();
    return () => {
      if (!subscribed.listeners.delete(subscription)) return;
      this.#changed();
    };
  }

  refresh(pollId?: string): void {
    if (this.#disposed) return;
    const now = this.scheduler.now();
    const targets =
      pollId === undefined
        ? [...this.#entries.values()]
        : [this.#entries.get(pollId)].filter((entry) => entry !== undefined);
    for (const entry of targets) if (entry.listeners.size > 0) entry.dueAt = now;
    this.#pacer.dropBackoff();
    this.#changed();
  }

  dispose(): void {
    this.#disposed = true;
    this.#pacer.stop();
    this.#stopSignals();
    this.#entries.clear();
  }

  active(): boolean {
    return this.#signals.isVisible() && this.#signals.isOnline();
  }

  busy(): boolean {
    return this.#inFlight;
  }

  /** A method, not the field, because the store can be disposed while a read is awaited. */
  #isDisposed(): boolean {
    return this.#disposed;
  }

  #changed(): void {
    if (!this.#disposed && !this.#inFlight) this.#pacer.changed();
  }

  async read(ids: readonly string[]): Promise<void> {
    this.#inFlight = true;
    const chunks: string[][] = [];
    for (let start = 0; start < ids.length; start += this.#chunkSize)
      chunks.push(ids.slice(start, start + this.#chunkSize));
    const results = await Promise.allSettled(chunks.map((chunk) => this.#read(chunk)));
    this.#inFlight = false;
    if (this.#isDisposed()) return;

    const readAt = this.scheduler.now();
    const failures: PlatformError[] = [];
    results.forEach((result, index) => {
      const chunk = chunks[index] ?? [];
      if (result.status === 'fulfilled') this.#applyPolls(chunk, result.value, readAt);
      else failures.push(this.#applyFailure(chunk, result.reason));
    });
    this.#pacer.afterRead(failures, readAt);
    this.#changed();
  }

  push(polls: readonly Poll[]): void {
    // A disposed store has no entries left: nothing is applied.
    const pushed = new Set(polls.map((poll) => poll.id.toLowerCase()));
    const ids = [...this.#entries.keys()].filter((id) => pushed.has(id.toLowerCase()));
    this.#applyPolls(ids, polls, this.scheduler.now());
    this.#changed();
  }

  async #read(ids: readonly string[]): Promise<PollBatch> {
    const polls: unknown = await this.#fetchPolls(ids);
    if (!Array.isArray(polls)) {
      throw new PlatformError('malformed_response', 'The poll source did not answer a list of polls.');
    }
    return polls as PollBatch;
  }

  #applyPolls(requested: readonly string[], polls: PollBatch, readAt: number): void {
    // Uuids compare without case: sources lower-case the ids they send (the proxy's cache key is canonical).
    const byId = new Map(polls.map((poll) => [poll.id.toLowerCase(), poll]));
    for (const id of requested) {
      const entry = this.#entries.get(id);
      if (entry === undefined) continue;
      const poll = byId.get(id.toLowerCase());
      const next = this.#pacer.nextRead(poll, readAt, polls.freshForMs);
      entry.dueAt = next.at;
      entry.paceMs = next.paceMs;
      entry.lastRead = { at: readAt, poll };
      if (poll === undefined) {
        const error = new PlatformError('not_found', 'The platform did not return this poll.');
        this.#setState(entry, {
          status: 'error',
          error,
          ...(entry.lastGood ? { poll: entry.lastGood } : {}),
        });
        continue;
      }
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

  #setState(entry: PollEntry, next: LivePollState): void {
    if (this.#pacer.same(entry.state, next)) return;
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
