import type { PlatformError } from '../platform/errors.ts';
import type { Poll } from '../platform/types.ts';
import { adaptivePacer, type AdaptivePacerOptions } from './adaptive-pacer.ts';
import { backoffDelay, type BackoffSettings } from './backoff.ts';
import type { LivePacer, LivePollState, MakePacer, PacerHost, PollEntry } from './live-store-core.ts';
import { pollTimeline } from './poll-phase.ts';

/** What the page's stream tells the pacer. */
export interface PollStreamHandlers {
  /** The stream flows: it carries these polls (lower case), the others are read. */
  ready(ids: readonly string[]): void;
  /** New copies, and the event id to reconnect from. */
  polls(polls: readonly Poll[], eventId: string): void;
  /** The stream failed, was refused or ended: the pacer closes it and reads the polls until it reconnects. */
  failed(): void;
}

/** One open stream of these polls (`lastEventId`: where a reconnect of the same polls resumes). */
export type OpenPollStream = (
  ids: readonly string[],
  lastEventId: string | undefined,
  handlers: PollStreamHandlers,
) => { close(): void };

export interface StreamingPacerOptions extends AdaptivePacerOptions {
  readonly open: OpenPollStream;
  /** A stream with no `ready` within this is given up (a network that buffers it) and the polls are read. */
  readonly readyWithinMs?: number;
  /** The wait before a reconnect after a failure: full jitter, so pages cut off together do not return together. */
  readonly reconnect?: Partial<BackoffSettings>;
}

const defaultReadyWithinMs = 5000;
const changeAfterMs = 250;
const defaultReconnect: BackoffSettings = { baseMs: 5000, capMs: 120_000, minMs: 1000 };

/**
 * The live store's pacing with the page's one stream of its polls: the polls the stream carries are not read at all
 * (their copies arrive as the proxy has them); the others, and all of them while the stream is down, are read by the
 * adaptive pacer once per phase pace (an open poll every 5 s, the proxy's freshness window), never timed from `Age`.
 * The stream closes while the page is hidden or offline and opens again when it is back; after a failure it
 * reconnects with backoff and full jitter, resuming from its last event id.
 */
export function streamingPacer(options: StreamingPacerOptions): MakePacer {
  return (host) => new StreamingPacer(host, options);
}

interface OpenStream {
  readonly key: string;
  handle: { close(): void } | undefined;
  live: boolean;
  readyTimer: unknown;
}

class StreamingPacer implements LivePacer {
  readonly #host: PacerHost;
  readonly #inner: LivePacer;
  readonly #open: OpenPollStream;
  readonly #readyWithinMs: number;
  readonly #reconnect: BackoffSettings;
  readonly #random: () => number;
  #stream: OpenStream | undefined;
  /** Polls (lower case) the stream carries: not read while it does. */
  readonly #pushed = new Set<string>();
  /** The last event id, for the polls (`key`) it belongs to. */
  #resume: { readonly key: string; readonly eventId: string } | undefined;
  #failures = 0;
  #reconnectTimer: unknown;
  #syncTimer: unknown;
  #stopped = false;

  constructor(host: PacerHost, options: StreamingPacerOptions) {
    this.#host = host;
    this.#inner = adaptivePacer(options)(host);
    this.#open = options.open;
    this.#readyWithinMs = options.readyWithinMs ?? defaultReadyWithinMs;
    this.#reconnect = { ...defaultReconnect, ...options.reconnect };
    this.#random = options.random ?? Math.random;
  }

  changed(): void {
    this.#syncSoon();
    this.#inner.changed();
  }

  dropBackoff(): void {
    this.#inner.dropBackoff();
  }

  nextRead(
    poll: Poll | undefined,
    readAt: number,
    _freshForMs?: number,
  ): { at: number | undefined; paceMs: number } {
    // Once per pace, never chasing the proxy's copy: the stream brings copies the moment the proxy has them.
    const next = this.#inner.nextRead(poll, readAt);
    return poll !== undefined && this.#pushed.has(poll.id.toLowerCase()) ? { ...next, at: undefined } : next;
  }

  afterRead(failures: readonly PlatformError[], readAt: number): void {
    this.#inner.afterRead(failures, readAt);
  }

  same(a: LivePollState, b: LivePollState): boolean {
    return this.#inner.same(a, b);
  }

  stop(): void {
    this.#stopped = true;
    this.#close();
    this.#host.scheduler.clearTimeout(this.#reconnectTimer);
    this.#host.scheduler.clearTimeout(this.#syncTimer);
    this.#inner.stop();
  }

  /**
   * Many cards subscribe in one task, a list's cards over a few: the stream is opened once they all have (a first
   * stream at the end of the task, a change of an open one `changeAfterMs` later, so it is changed once).
   */
  #syncSoon(): void {
    if (this.#stopped || this.#syncTimer !== undefined) return;
    this.#syncTimer = this.#host.scheduler.setTimeout(
      () => {
        this.#syncTimer = undefined;
        this.#sync();
      },
      this.#stream === undefined ? 0 : changeAfterMs,
    );
  }

  /** Opens, changes or closes the stream to match the page: its live polls, while visible and online. */
  #sync(): void {
    if (this.#stopped) return;
    const ids = this.#wantedIds();
    const key = ids.join(',');
    if (!this.#host.active() || ids.length === 0) {
      // Paused, not failed: the polls stay with the stream, which resumes when the page is back.
      this.#close();
      return;
    }
    if (this.#stream?.key === key || this.#reconnectTimer !== undefined) return;
    this.#close();
    const stream: OpenStream = { key, handle: undefined, live: false, readyTimer: undefined };
    this.#stream = stream;
    const current = () => this.#stream === stream;
    stream.readyTimer = this.#host.scheduler.setTimeout(() => {
      if (current() && !stream.live) this.#failed();
    }, this.#readyWithinMs);
    const handle = this.#open(ids, this.#resume?.key === key ? this.#resume.eventId : undefined, {
      ready: (carried) => {
        if (!current()) return;
        stream.live = true;
        this.#failures = 0;
        this.#host.scheduler.clearTimeout(stream.readyTimer);
        this.#carry(carried);
      },
      polls: (polls, eventId) => {
        if (!current()) return;
        this.#resume = { key, eventId };
        this.#host.push(polls);
      },
      failed: () => {
        if (current()) this.#failed();
      },
    });
    // Failed while opening: closed already.
    if (current()) stream.handle = handle;
    else handle.close();
  }

  /**
   * Subscribed polls known to be able to still change, lower case and sorted (the proxy's order). A poll not read yet
   * waits for its first read (due at once): a list of earlier results would otherwise join the stream and leave it
   * again as soon as its copies say they are disclosed.
   */
  #wantedIds(): string[] {
    const ids = new Set<string>();
    for (const [id, entry] of this.#host.entries)
      if (
        entry.listeners.size > 0 &&
        entry.lastGood !== undefined &&
        !finished(entry, this.#host.scheduler.now())
      )
        ids.add(id.toLowerCase());
    return [...ids].sort();
  }

  /** The stream carries these polls now: their planned reads are dropped; the polls it left are read again. */
  #carry(carried: readonly string[]): void {
    const now = new Set(carried.map((id) => id.toLowerCase()));
    const dropped = [...this.#pushed].filter((id) => !now.has(id));
    this.#pushed.clear();
    for (const id of now) this.#pushed.add(id);
    for (const [id, entry] of this.#host.entries) if (now.has(id.toLowerCase())) entry.dueAt = undefined;
    this.#replan(dropped);
    this.#inner.changed();
  }

  /** The polls go back to being read: planned from their last read (due at once when that is a pace ago). */
  #replan(ids: readonly string[]): void {
    const wanted = new Set(ids);
    for (const [id, entry] of this.#host.entries) {
      if (!wanted.has(id.toLowerCase()) || entry.dueAt !== undefined) continue;
      const last = entry.lastRead ?? { at: this.#host.scheduler.now(), poll: entry.lastGood };
      const next = this.#inner.nextRead(last.poll, last.at);
      entry.dueAt = next.at;
      entry.paceMs = next.paceMs;
    }
  }

  #failed(): void {
    this.#close();
    this.#failures += 1;
    const dropped = [...this.#pushed];
    this.#pushed.clear();
    this.#replan(dropped);
    this.#inner.changed();
    const waitMs = backoffDelay(this.#failures, this.#reconnect, this.#random);
    this.#reconnectTimer = this.#host.scheduler.setTimeout(() => {
      this.#reconnectTimer = undefined;
      this.#sync();
    }, waitMs);
  }

  #close(): void {
    const stream = this.#stream;
    this.#stream = undefined;
    if (stream === undefined) return;
    this.#host.scheduler.clearTimeout(stream.readyTimer);
    stream.handle?.close();
  }
}

/** A poll that cannot change any more (disclosed, cancelled): no stream needs to carry it. */
function finished(entry: PollEntry, now: number): boolean {
  if (entry.lastGood === undefined) return false;
  const phase = pollTimeline(entry.lastGood, now).phase;
  return phase === 'disclosed' || phase === 'cancelled';
}
