import { encodeBase64Url } from 'hono/utils/encode';
import type { CacheOutcome } from './operations/metrics.ts';

/**
 * A short-lived cache of upstream answers, one entry per normalized request. Concurrent misses for one key share
 * one load (so a crowd costs one upstream request); a stale entry is served while one refresh runs in the
 * background, and kept as a fallback for a while when the upstream fails.
 */
export interface CachedAnswer {
  /** The JSON body as sent to browsers. */
  readonly body: string;
  /** Strong validator of `body`. */
  readonly etag: string;
  /** When it was loaded, ms since the epoch. */
  readonly storedAt: number;
}

/** An answer's `Age` header (RFC 9111): whole seconds since the proxy loaded it, at `now`. */
export function ageOf(answer: CachedAnswer, now: number): string {
  return String(Math.max(0, Math.floor((now - answer.storedAt) / 1000)));
}

export interface ResponseCacheOptions {
  /** How long an answer is fresh. */
  readonly freshMs: number;
  /** After freshness: served at once while a background refresh runs. */
  readonly staleWhileRevalidateMs: number;
  /** After that: served only when a reload fails. */
  readonly staleIfErrorMs: number;
  /**
   * After that, when a reload is slower than this and an entry within `staleIfErrorMs` is held: the entry is
   * served and the reload goes on in the background (stale-on-slow). Default: wait for the reload.
   */
  readonly staleOnSlowMs?: number;
  readonly maxEntries: number;
  /**
   * How long a failed load that `get`'s `remember` accepts is remembered (a negative cache): meanwhile the key's
   * callers get the stale entry if any, else the same failure, and nothing is loaded. Default: `freshMs`.
   */
  readonly failureMemoryMs?: number;
  readonly now?: () => number;
  /** Told how each `get` was answered (metrics). */
  readonly onOutcome?: (outcome: CacheOutcome) => void;
  /** Given each load that goes on after its caller was answered (Workers: the request's `waitUntil`). */
  readonly waitUntil?: (work: Promise<unknown>) => void;
}

export class ResponseCache {
  readonly #entries = new Map<string, CachedAnswer>();
  readonly #loading = new Map<string, Promise<CachedAnswer>>();
  /** When each load in flight started: who comes while a slow one runs waits only what is left of `staleOnSlowMs`. */
  readonly #loadingSince = new Map<string, number>();
  /** Failed loads remembered, until when (insertion order: the first is the oldest). */
  readonly #failures = new Map<string, { readonly error: unknown; readonly until: number }>();
  readonly #options: ResponseCacheOptions;
  readonly #now: () => number;

  constructor(options: ResponseCacheOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
  }

  /**
   * The answer for `key`, loading it with `load` (which returns the body) when nothing usable is held. A load's
   * failure that `remember` accepts is remembered for `failureMemoryMs`, so a platform answering garbage is asked
   * once per key and window, not once per caller.
   */
  async get(
    key: string,
    load: () => Promise<string>,
    remember: (error: unknown) => boolean = () => false,
  ): Promise<CachedAnswer> {
    const atOnce = this.atOnce(key);
    if (atOnce !== undefined) return atOnce;
    const entry = this.#entries.get(key);
    const age = entry === undefined ? Infinity : this.#now() - entry.storedAt;
    const told = this.#options.onOutcome ?? (() => undefined);
    const failure = this.#failures.get(key);
    const failing = failure !== undefined && this.#now() < failure.until;
    if (!failing) this.#failures.delete(key);
    if (entry !== undefined && this.#servedStale(age)) {
      told('stale');
      if (!failing) this.#refreshInBackground(key, load, remember);
      return entry;
    }
    if (failing) return this.#fallbackOr(key, failure.error);
    told(this.#loading.has(key) ? 'coalesced' : 'miss');
    try {
      return await this.#loadOrStaleWhenSlow(key, () => this.#loadRemembering(key, load, remember), entry);
    } catch (error) {
      return this.#fallbackOr(key, error);
    }
  }

  /**
   * The entry for `key` when `get` answers it at once and starts nothing: while it is fresh (told as a `hit`), and
   * while it is stale within stale-while-revalidate and its refresh is already running (told as `stale`). Otherwise
   * undefined and nothing told. For a caller that answers without waiting (Node's first listener) and leaves the rest
   * to `get`: the first stale read goes through `get` and starts the refresh, the ones after it are answered here.
   */
  atOnce(key: string): CachedAnswer | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    const age = this.#now() - entry.storedAt;
    if (age < this.#options.freshMs) {
      this.#options.onOutcome?.('hit');
      return entry;
    }
    if (this.#servedStale(age) && this.#loading.has(key)) {
      this.#options.onOutcome?.('stale');
      return entry;
    }
    return undefined;
  }

  /**
   * The entry for `key` while it is fresh (and younger than `maxAgeMs`); otherwise its reload, awaited (one load however many ask, shared with `get`'s
   * loads). For the poll streams' refresher, which must hand on the new copy, never the stale one.
   */
  async renew(
    key: string,
    load: () => Promise<string>,
    remember: (error: unknown) => boolean = () => false,
    maxAgeMs = this.#options.freshMs,
  ): Promise<CachedAnswer> {
    const entry = this.#entries.get(key);
    if (entry !== undefined && this.#now() - entry.storedAt < Math.min(maxAgeMs, this.#options.freshMs))
      return entry;
    return this.#loadRemembering(key, load, remember);
  }

  /**
   * Keeps `answer`, loaded elsewhere (another instance's copy, from the poll streams' fan-out), unless the entry held
   * is as new or newer: this instance's readers then get it without a platform read of their own.
   */
  put(key: string, answer: CachedAnswer): void {
    const held = this.#entries.get(key);
    if (held !== undefined && held.storedAt >= answer.storedAt) return;
    this.#store(key, answer);
  }

  /** Whether an entry this old (ms) is past fresh but still answered while it refreshes (stale-while-revalidate). */
  #servedStale(age: number): boolean {
    return age < this.#options.freshMs + this.#options.staleWhileRevalidateMs;
  }

  /**
   * The one background refresh of a stale entry, started and not awaited (the reader has the stale entry already).
   * Its failure is handled inside `#load` (the stale entry stays); an edge runtime keeps it alive (`waitUntil`).
   */
  #refreshInBackground(
    key: string,
    load: () => Promise<string>,
    remember: (error: unknown) => boolean,
  ): void {
    this.#background(this.#loadRemembering(key, load, remember));
  }

  /** The entry held for `key` while it may be served on error, or else `error` thrown. */
  #fallbackOr(key: string, error: unknown): CachedAnswer {
    const fallback = this.#entries.get(key);
    if (fallback !== undefined && this.#usableOnError(fallback)) {
      this.#options.onOutcome?.('stale_on_error');
      return fallback;
    }
    throw error;
  }

  /** `#load`, remembering a failure that `remember` accepts and forgetting it on success. */
  async #loadRemembering(
    key: string,
    load: () => Promise<string>,
    remember: (error: unknown) => boolean,
  ): Promise<CachedAnswer> {
    try {
      const answer = await this.#load(key, load);
      this.#failures.delete(key);
      return answer;
    } catch (error) {
      if (remember(error)) {
        this.#failures.delete(key);
        this.#failures.set(key, {
          error,
          until: this.#now() + (this.#options.failureMemoryMs ?? this.#options.freshMs),
        });
        while (this.#failures.size > this.#options.maxEntries) {
          const oldest = this.#failures.keys().next();
          if (oldest.done === true) break;
          this.#failures.delete(oldest.value);
        }
      }
      throw error;
    }
  }

  /** How many loads are in flight (tests and the bench read it). */
  get loadsInFlight(): number {
    return this.#loading.size;
  }

  /** Settles when the loads in flight now have ended, however each ended (tests wait on it instead of a clock). */
  async loadsSettled(): Promise<void> {
    await Promise.allSettled([...this.#loading.values()]);
  }

  async #loadOrStaleWhenSlow(
    key: string,
    load: () => Promise<CachedAnswer>,
    entry: CachedAnswer | undefined,
  ): Promise<CachedAnswer> {
    const loading = load();
    const slowAfterMs = this.#options.staleOnSlowMs;
    if (entry === undefined || slowAfterMs === undefined || !this.#usableOnError(entry)) return loading;
    const slowMs = Math.max(0, slowAfterMs - (this.#now() - (this.#loadingSince.get(key) ?? this.#now())));
    let timer: ReturnType<typeof setTimeout> | undefined;
    const slow = new Promise<'slow'>((resolve) => {
      timer = setTimeout(() => {
        resolve('slow');
      }, slowMs);
    });
    try {
      const first = await Promise.race([loading, slow]);
      if (first !== 'slow') return first;
      // The reload's own failure is handled inside #load (the entry stays); it finishes in the background.
      this.#background(loading);
      this.#options.onOutcome?.('stale_on_slow');
      return entry;
    } finally {
      clearTimeout(timer);
    }
  }

  /** A load that goes on after its caller was answered: its failure is handled inside #load (the entry stays). */
  #background(work: Promise<unknown>): void {
    const settled = work.catch(() => undefined);
    this.#options.waitUntil?.(settled);
  }

  #usableOnError(entry: CachedAnswer): boolean {
    const limit = this.#options.freshMs + this.#options.staleWhileRevalidateMs + this.#options.staleIfErrorMs;
    return this.#now() - entry.storedAt < limit;
  }

  #load(key: string, load: () => Promise<string>): Promise<CachedAnswer> {
    const inFlight = this.#loading.get(key);
    if (inFlight !== undefined) return inFlight;
    this.#loadingSince.set(key, this.#now());
    const loading = (async () => {
      try {
        const body = await load();
        const answer: CachedAnswer = { body, etag: await etagOf(body), storedAt: this.#now() };
        this.#store(key, answer);
        return answer;
      } finally {
        this.#loading.delete(key);
        this.#loadingSince.delete(key);
      }
    })();
    this.#loading.set(key, loading);
    return loading;
  }

  #store(key: string, answer: CachedAnswer): void {
    this.#entries.delete(key);
    this.#entries.set(key, answer);
    // Map keeps insertion order: the first key is the least recently stored.
    while (this.#entries.size > this.#options.maxEntries) {
      const oldest = this.#entries.keys().next();
      if (oldest.done === true) break;
      this.#entries.delete(oldest.value);
    }
  }
}

/** A strong ETag: the first 128 bits of the body's SHA-256, base64url. Web Crypto, so it runs on any runtime. */
export async function etagOf(body: string | Uint8Array<ArrayBuffer>): Promise<string> {
  const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : body;
  const digest = await crypto.subtle.digest('SHA-256', bytes);
  return `"${encodeBase64Url(digest.slice(0, 16)).replace(/=+$/, '')}"`;
}

/** Whether an `If-None-Match` header matches `etag` (strong or weak form, list or `*`). */
export function ifNoneMatchHits(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === etag);
}
