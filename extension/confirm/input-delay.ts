/**
 * Browsers ignore input on a permission prompt for a moment after it appears, so a click or key press meant for the
 * page underneath cannot land on it. The confirmation window does the same: its confirm control is armed only after
 * the window has been visible for `delayMs`, counted again from each return to the front (so the click that brings
 * the window back is ignored too), and disarmed while hidden.
 */
export class InputDelay {
  #armedAt: number | undefined;

  constructor(
    private readonly delayMs: number,
    private readonly now: () => number,
  ) {}

  /** The window was shown or regained focus: input counts again only after the delay. */
  restart(): void {
    this.#armedAt = this.now() + this.delayMs;
  }

  /** The window lost focus or was hidden. */
  disarm(): void {
    this.#armedAt = undefined;
  }

  get armed(): boolean {
    return this.#armedAt !== undefined && this.now() >= this.#armedAt;
  }

  /** Milliseconds until armed (0 when armed; undefined while disarmed). */
  get remainingMs(): number | undefined {
    return this.#armedAt === undefined ? undefined : Math.max(0, this.#armedAt - this.now());
  }
}
