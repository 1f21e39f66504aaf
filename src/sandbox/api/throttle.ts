import type { Clock } from '../clock.ts';

const windowMs = 60_000;

/**
 * Per-application request quota over fixed one-minute windows aligned to the sandbox clock, as WSO2 counts an
 * application's or subscription's requests. A rate of 0 turns throttling off.
 */
export class Throttle {
  readonly #windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly clock: Clock,
    public requestsPerMinute: number,
  ) {}

  /** Counts one request of an application; returns undefined when allowed, else when access resumes (ms). */
  take(clientId: string): number | undefined {
    if (this.requestsPerMinute <= 0) return undefined;
    const start = Math.floor(this.clock.now() / windowMs) * windowMs;
    const current = this.#windows.get(clientId);
    const window = current && current.start === start ? current : { start, count: 0 };
    this.#windows.set(clientId, window);
    if (window.count >= this.requestsPerMinute) return start + windowMs;
    window.count += 1;
    return undefined;
  }

  reset(): void {
    this.#windows.clear();
  }
}
