/** The sandbox's sense of time: real time by default, settable and freezable in tests. */
export interface Clock {
  /** Milliseconds since the epoch, as `Date.now()`. */
  now(): number;
}

/** A clock that runs with real time plus an offset, or stands still once frozen. */
export class SandboxClock implements Clock {
  #offsetMs = 0;
  #frozenAt: number | undefined;

  now(): number {
    return this.#frozenAt ?? Date.now() + this.#offsetMs;
  }

  get frozen(): boolean {
    return this.#frozenAt !== undefined;
  }

  /** Jump to an instant; the clock keeps running from there unless frozen. */
  set(instant: Date | number): void {
    const target = typeof instant === 'number' ? instant : instant.getTime();
    if (this.#frozenAt !== undefined) this.#frozenAt = target;
    else this.#offsetMs = target - Date.now();
  }

  advance(ms: number): void {
    this.set(this.now() + ms);
  }

  freeze(): void {
    this.#frozenAt = this.now();
  }

  resume(): void {
    if (this.#frozenAt === undefined) return;
    this.#offsetMs = this.#frozenAt - Date.now();
    this.#frozenAt = undefined;
  }
}
