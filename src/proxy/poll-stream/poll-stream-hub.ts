import type { CachedAnswer } from '../response-cache.ts';
import type { ProxyRuntime } from '../runtime.ts';
import type { FanOutState } from '../state/proxy-state.ts';

/** Where one poll's new copies go: a stream of this instance. */
export type CopySink = (pollId: string, copy: CachedAnswer) => void;

/** The channel every instance hears new copies on, and the keys of the refresher's lease and of the newest copy. */
const copiesChannel = 'poll-copies';
const leaseKey = (pollId: string) => `poll-stream-lease:${pollId}`;
const copyKey = (pollId: string) => `poll-copy:${pollId}`;
/** How old a copy a new watch's first stream may get: older, the poll is read again (the page's own read is newer). */
const newWatchMs = 1000;
/**
 * Streams handed a new copy in one turn of the event loop: 500 events take about 25 ms of this machine's CPU, most of
 * it the sockets' writes, so 10,000 streams hold the instance's other requests back 25 ms at a time, not 0.5 s.
 */
const handOutSlice = 500;

/** The cap a refused stream met: the instance's streams, or the client address's. */
export type StreamCap = 'instance' | 'client';

interface Watch {
  readonly sinks: Set<CopySink>;
  copy: CachedAnswer | undefined;
  /** This instance made `copy`: it refreshes first when the copy is due, the others a little later (`graceMs`). */
  madeHere: boolean;
  timer: ReturnType<typeof setTimeout> | undefined;
  /** Waiting on the store or the platform: no second tick meanwhile. */
  busy: boolean;
}

/** A copy as it travels between instances (published, and kept under `copyKey`). */
interface SharedCopy {
  readonly id: string;
  readonly body: string;
  readonly etag: string;
  readonly storedAt: number;
}

export interface PollStreamHubOptions {
  /**
   * The poll's public read, fresh: the cached answer while fresh (and younger than `maxAgeMs`), else its reload
   * awaited (`renewPublicPoll`).
   */
  readonly renew: (pollId: string, maxAgeMs?: number) => Promise<CachedAnswer>;
  /** The poll cache's key for the poll's public read (`publicPollKey`), where copies of other instances go. */
  readonly cacheKeyOf: (pollId: string) => string;
  /** Names this instance's lease. */
  readonly instanceId?: string;
}

/**
 * The poll streams of one instance and their refresher. Each watched poll (one at least one stream of this instance
 * watches) is read once per freshness window for every fan of every instance: when its copy is due, the instances
 * that watch it race for a lease in the shared store (`SET NX PX`, one window long); the winner renews the copy
 * through the poll cache (one platform read), keeps it in the store and publishes it; every instance hears it on
 * the channel, keeps it in its own poll cache (its fans' plain reads need no platform read either) and hands it to
 * its streams when it changed. The instance that made the last copy races first; the others wait `graceMs` more,
 * so the refreshing stays on one instance and moves within that grace when the instance goes away. With the store or
 * the channel away (Redis down), each instance refreshes on its own, once per window.
 */
export class PollStreamHub {
  readonly #runtime: ProxyRuntime;
  readonly #fanOut: FanOutState;
  readonly #instanceId: string;
  readonly #renew: (pollId: string, maxAgeMs?: number) => Promise<CachedAnswer>;
  readonly #cacheKeyOf: (pollId: string) => string;
  readonly #freshMs: number;
  readonly #graceMs: number;
  readonly #watches = new Map<string, Watch>();
  #unsubscribe: Promise<(() => Promise<void>) | undefined> | undefined;
  #streams = 0;
  readonly #perClient = new Map<string, number>();
  /** Platform refreshes this instance made (tests and metrics). */
  refreshes = 0;
  /** Poll events sent down this instance's streams (metrics). */
  eventsSent = 0;
  /** Streams refused at each cap (metrics). */
  readonly refused: Record<StreamCap, number> = { instance: 0, client: 0 };

  constructor(runtime: ProxyRuntime, fanOut: FanOutState, options: PollStreamHubOptions) {
    this.#runtime = runtime;
    this.#fanOut = fanOut;
    this.#instanceId = options.instanceId ?? crypto.randomUUID();
    this.#renew = options.renew;
    this.#cacheKeyOf = options.cacheKeyOf;
    this.#freshMs = runtime.config.pollCacheSeconds * 1000;
    this.#graceMs = Math.min(1000, this.#freshMs / 5);
  }

  /** Streams open on this instance. */
  get streams(): number {
    return this.#streams;
  }

  /** Whether this instance's streams watch the poll already (a new stream of it costs no platform read). */
  isWatched(pollId: string): boolean {
    return this.#watches.has(pollId.toLowerCase());
  }

  /** Polls watched by this instance's streams. */
  get watched(): number {
    return this.#watches.size;
  }

  /**
   * Counts a new stream of `client` against the caps: its release, or undefined at a cap (the page then polls).
   */
  admit(client: string): (() => void) | undefined {
    const { streamsPerInstance, streamsPerClient } = this.#runtime.config;
    const ofClient = this.#perClient.get(client) ?? 0;
    const cap =
      this.#streams >= streamsPerInstance ? 'instance' : ofClient >= streamsPerClient ? 'client' : undefined;
    if (cap !== undefined) {
      this.refused[cap] += 1;
      return undefined;
    }
    this.#streams += 1;
    this.#perClient.set(client, ofClient + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#streams -= 1;
      const left = (this.#perClient.get(client) ?? 1) - 1;
      if (left > 0) this.#perClient.set(client, left);
      else this.#perClient.delete(client);
    };
  }

  /**
   * `sink` hears the poll's current copy (at once when this instance holds one, else once it is read) and every new
   * one after it. Returns the end of the watch.
   */
  watch(pollId: string, sink: CopySink): () => void {
    const id = pollId.toLowerCase();
    let watch = this.#watches.get(id);
    if (watch === undefined) {
      watch = { sinks: new Set(), copy: undefined, madeHere: false, timer: undefined, busy: false };
      this.#watches.set(id, watch);
      this.#subscribe();
      void this.#tick(id);
    }
    const watching = watch;
    // A wrapper per watch: one stream may watch a poll once, and a sink is removed with its own watch.
    const own: CopySink = (polled, copy) => {
      sink(polled, copy);
    };
    watching.sinks.add(own);
    if (watching.copy !== undefined) own(id, watching.copy);
    return () => {
      watching.sinks.delete(own);
      if (watching.sinks.size > 0 || this.#watches.get(id) !== watching) return;
      clearTimeout(watching.timer);
      this.#watches.delete(id);
      if (this.#watches.size === 0) this.#unsubscribeAll();
    };
  }

  #subscribe(): void {
    this.#unsubscribe ??= this.#fanOut.pubSub
      .subscribe(copiesChannel, (message) => {
        const copy = sharedCopyOf(message);
        if (copy !== undefined) this.#accept(copy.id, copy, false);
      })
      .catch((error: unknown) => {
        this.#runtime.logger.log('warn', 'poll_stream_subscribe_failed', { cause: messageOf(error) });
        return undefined;
      });
  }

  #unsubscribeAll(): void {
    const subscribed = this.#unsubscribe;
    this.#unsubscribe = undefined;
    void subscribed?.then((unsubscribe) => unsubscribe?.());
  }

  /** A copy made here or heard from another instance: kept when newer, handed to the streams when it changed. */
  #accept(id: string, copy: CachedAnswer, madeHere: boolean): void {
    const watch = this.#watches.get(id);
    if (!madeHere) this.#runtime.pollCache.put(this.#cacheKeyOf(id), copy);
    if (watch === undefined || (watch.copy !== undefined && watch.copy.storedAt >= copy.storedAt)) return;
    const changed = watch.copy?.etag !== copy.etag;
    watch.copy = copy;
    watch.madeHere = madeHere;
    if (changed) handOut(id, watch, copy, [...watch.sinks], 0);
    if (!watch.busy) this.#schedule(id, watch);
  }

  /** The next tick: when the copy is due (later by `graceMs` where another instance made it), or after `retryMs`. */
  #schedule(id: string, watch: Watch, retryMs?: number): void {
    clearTimeout(watch.timer);
    const now = this.#runtime.now();
    const due =
      retryMs !== undefined
        ? now + retryMs
        : watch.copy === undefined
          ? now
          : watch.copy.storedAt + this.#freshMs + (watch.madeHere ? 0 : this.#graceMs);
    watch.timer = setTimeout(
      () => {
        void this.#tick(id);
      },
      Math.max(0, due - now),
    );
  }

  async #tick(id: string): Promise<void> {
    const watch = this.#watches.get(id);
    if (watch === undefined || watch.busy) return;
    watch.timer = undefined;
    const now = this.#runtime.now();
    if (watch.copy !== undefined && now - watch.copy.storedAt < this.#freshMs) {
      this.#schedule(id, watch);
      return;
    }
    watch.busy = true;
    let retryMs: number | undefined;
    try {
      // A new watch: the page has just read the poll, so its first copy must be as new: read again unless the copy
      // held is younger than `newWatchMs`. Where another instance holds the lease, its copy (kept in the store).
      const newWatch = watch.copy === undefined;
      if (await this.#lease(id)) {
        const copy = await this.#renew(id, newWatch ? newWatchMs : undefined);
        this.refreshes += 1;
        // Published before this instance's streams get it: the other instances hand it out meanwhile.
        const sharing = this.#share(id, copy);
        this.#accept(id, copy, true);
        await sharing;
      } else {
        const shared = newWatch ? await this.#sharedCopy(id) : undefined;
        if (shared !== undefined) this.#accept(id, shared, false);
        // Another instance refreshes: its copy comes on the channel; look again if it does not.
        retryMs = Math.max(250, this.#freshMs / 4);
      }
    } catch (error) {
      // The platform failed (the cache remembers it for a window) or the store did: try again later.
      this.#runtime.logger.log('info', 'poll_stream_refresh_failed', { cause: messageOf(error) });
      retryMs = this.#freshMs;
    } finally {
      watch.busy = false;
    }
    if (this.#watches.get(id) === watch) this.#schedule(id, watch, retryMs);
  }

  async #sharedCopy(id: string): Promise<SharedCopy | undefined> {
    try {
      const kept = await this.#fanOut.store.get(copyKey(id));
      return kept === undefined ? undefined : sharedCopyOf(kept);
    } catch {
      return undefined;
    }
  }

  /** Whether this instance refreshes the poll this window: it won the lease, holds it, or the store does not answer. */
  async #lease(id: string): Promise<boolean> {
    try {
      const store = this.#fanOut.store;
      return (
        (await store.set(leaseKey(id), this.#instanceId, this.#freshMs, 'absent')) ||
        (await store.get(leaseKey(id))) === this.#instanceId
      );
    } catch {
      return true;
    }
  }

  async #share(id: string, copy: CachedAnswer): Promise<void> {
    const shared = JSON.stringify({
      id,
      body: copy.body,
      etag: copy.etag,
      storedAt: copy.storedAt,
    } satisfies SharedCopy);
    await Promise.allSettled([
      this.#fanOut.store.set(copyKey(id), shared, this.#freshMs * 3),
      this.#fanOut.pubSub.publish(copiesChannel, shared),
    ]);
  }
}

/**
 * Hands `copy` to `sinks` from `from` on, `handOutSlice` at a time with a turn of the event loop between slices, so
 * that the other requests of the instance (and the copy's publication to the other instances) wait one slice, not
 * the whole fan-out. A different copy meanwhile stops it: that copy's own hand-out reaches every stream.
 */
function handOut(
  id: string,
  watch: Watch,
  copy: CachedAnswer,
  sinks: readonly CopySink[],
  from: number,
): void {
  if (watch.copy?.etag !== copy.etag) return;
  const to = Math.min(sinks.length, from + handOutSlice);
  for (let index = from; index < to; index += 1) sinks[index]?.(id, copy);
  if (to < sinks.length)
    nextTurn(() => {
      handOut(id, watch, copy, sinks, to);
    });
}

/**
 * The next turn of the event loop: `setImmediate` where the runtime has it (Node), which runs after the I/O waiting
 * without sleeping; else a 0 ms timer. A timer sleeps at least 1 ms, and on a busy machine the process then waits for
 * a core again, once per slice.
 */
const nextTurn: (run: () => void) => void =
  typeof setImmediate === 'function'
    ? (run) => {
        setImmediate(run);
      }
    : (run) => {
        setTimeout(run, 0);
      };

function sharedCopyOf(message: string): SharedCopy | undefined {
  try {
    const copy = JSON.parse(message) as Partial<SharedCopy>;
    if (
      typeof copy.id !== 'string' ||
      typeof copy.body !== 'string' ||
      typeof copy.etag !== 'string' ||
      typeof copy.storedAt !== 'number'
    )
      return undefined;
    return { id: copy.id, body: copy.body, etag: copy.etag, storedAt: copy.storedAt };
  } catch {
    return undefined;
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : 'unknown';
}
