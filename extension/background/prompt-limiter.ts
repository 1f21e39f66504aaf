/**
 * Limits how often one site may open an extension window (sign-in or approval): a hostile page must not be able to
 * bury the fan in prompts. In memory: a restarted worker forgets, which only ever allows a few more prompts.
 */
export class PromptLimiter {
  readonly #recent = new Map<string, number[]>();

  constructor(
    private readonly maxPrompts: number,
    private readonly windowMs: number,
    private readonly now: () => number,
  ) {}

  /** True (and counted) when `key` may prompt now. */
  tryTake(key: string): boolean {
    const now = this.now();
    const recent = (this.#recent.get(key) ?? []).filter((at) => now - at < this.windowMs);
    if (recent.length >= this.maxPrompts) {
      this.#recent.set(key, recent);
      return false;
    }
    recent.push(now);
    this.#recent.set(key, recent);
    return true;
  }
}
