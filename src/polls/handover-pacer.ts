import type { PlatformError } from '../platform/errors.ts';
import type { Poll } from '../platform/types.ts';
import type { LivePacer, LivePollState, MakePacer, PacerHost } from './live-store-core.ts';

/**
 * A store's pacing while its real pacer loads (the adaptive pacer, a chunk of its own in the script-tag build, which a
 * card's first paint does not need): it reads the subscribed polls as they come (the first read at once), starts
 * loading the real pacer once a read has answered, and then hands the store over. The real pacer plans each poll from
 * its last read (with that answer's freshness), backs off from the failures seen meanwhile, and paces from then on as
 * if it had from the start. Until then a poll is read once (again only when refreshed), and none after a failure.
 */
export function handOverPacer(load: () => Promise<MakePacer>, retryLoadMs = 5000): MakePacer {
  return (host) => new HandOverPacer(host, load, retryLoadMs);
}

/** What happened before the hand-over, replayed to the real pacer in order. */
type Seen =
  { readonly failures: readonly PlatformError[]; readonly readAt: number } | { readonly dropBackoff: true };

class HandOverPacer implements LivePacer {
  readonly #host: PacerHost;
  readonly #load: () => Promise<MakePacer>;
  readonly #retryLoadMs: number;
  #real: LivePacer | undefined;
  #timer: unknown;
  #loading = false;
  #stopped = false;
  #failed = false;
  readonly #seen: Seen[] = [];
  /** Each read's freshness (`freshForMs`), by the instant it was read. */
  readonly #fresh = new Map<number, number | undefined>();

  constructor(host: PacerHost, load: () => Promise<MakePacer>, retryLoadMs: number) {
    this.#host = host;
    this.#load = load;
    this.#retryLoadMs = retryLoadMs;
  }

  changed(): void {
    if (this.#real) {
      this.#real.changed();
      return;
    }
    if (this.#stopped || this.#failed || this.#timer !== undefined || this.#dueIds().length === 0) return;
    this.#timer = this.#host.scheduler.setTimeout(() => {
      this.#timer = undefined;
      if (this.#real) this.#real.changed();
      else if (!this.#stopped && !this.#failed && !this.#host.busy() && this.#host.active()) {
        const ids = this.#dueIds();
        if (ids.length > 0) void this.#host.read(ids);
      }
    }, 0);
  }

  dropBackoff(): void {
    if (this.#real) this.#real.dropBackoff();
    else this.#seen.push({ dropBackoff: true });
  }

  nextRead(
    poll: Poll | undefined,
    readAt: number,
    freshForMs?: number,
  ): { at: number | undefined; paceMs: number } {
    if (this.#real) return this.#real.nextRead(poll, readAt, freshForMs);
    // Planned at the hand-over, from the entry's last read.
    this.#fresh.set(readAt, freshForMs);
    return { at: undefined, paceMs: 0 };
  }

  afterRead(failures: readonly PlatformError[], readAt: number): void {
    if (this.#real) {
      this.#real.afterRead(failures, readAt);
      return;
    }
    if (failures.length > 0) {
      this.#failed = true;
      this.#seen.push({ failures, readAt });
    }
    this.#loadReal();
  }

  same(a: LivePollState, b: LivePollState): boolean {
    return this.#real ? this.#real.same(a, b) : a === b;
  }

  stop(): void {
    this.#stopped = true;
    this.#clearTimer();
    this.#real?.stop();
  }

  #dueIds(): string[] {
    const now = this.#host.scheduler.now();
    return [...this.#host.entries]
      .filter(([, entry]) => entry.listeners.size > 0 && entry.dueAt !== undefined && entry.dueAt <= now)
      .map(([id]) => id);
  }

  #loadReal(): void {
    if (this.#loading || this.#stopped) return;
    this.#loading = true;
    this.#load().then(
      (make) => {
        this.#handOver(make(this.#host));
      },
      () => {
        // Offline, or a deploy meanwhile: try again later; the store keeps its last states.
        this.#loading = false;
        this.#host.scheduler.setTimeout(() => {
          this.#loadReal();
        }, this.#retryLoadMs);
      },
    );
  }

  #handOver(real: LivePacer): void {
    this.#clearTimer();
    if (this.#stopped) {
      real.stop();
      return;
    }
    for (const seen of this.#seen)
      if ('failures' in seen) real.afterRead(seen.failures, seen.readAt);
      else real.dropBackoff();
    for (const entry of this.#host.entries.values()) {
      if (!entry.lastRead || entry.dueAt !== undefined) continue;
      const next = real.nextRead(entry.lastRead.poll, entry.lastRead.at, this.#fresh.get(entry.lastRead.at));
      entry.dueAt = next.at;
      entry.paceMs = next.paceMs;
    }
    this.#real = real;
    real.changed();
  }

  #clearTimer(): void {
    if (this.#timer !== undefined) this.#host.scheduler.clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
