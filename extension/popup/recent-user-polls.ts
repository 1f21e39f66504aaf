import type { Poll } from '../../src/platform/types.ts';

/** How long a read of the fan's polls can stand in for a card's own read of its poll. */
const freshForMs = 3000;

/**
 * The popup's last read of the fan's user-context polls, handed once to the card that asks for its fan view right
 * after (each card reads its fan view when it first shows its poll, and the store has just read exactly that): the
 * popup then costs one batched read, not one more read per card. A poll is handed out once and only while fresh, and
 * a vote forgets it, so a status read after a vote always asks the background.
 */
export class RecentUserPolls {
  readonly #polls = new Map<string, { readonly poll: Poll; readonly at: number }>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  remember(polls: readonly Poll[]): void {
    const at = this.#now();
    for (const poll of polls) this.#polls.set(poll.id.toLowerCase(), { poll, at });
  }

  /** The remembered poll, if fresh; it is not handed out again. */
  take(pollId: string): Poll | undefined {
    const key = pollId.toLowerCase();
    const known = this.#polls.get(key);
    this.#polls.delete(key);
    return known && this.#now() - known.at <= freshForMs ? known.poll : undefined;
  }

  forget(pollId: string): void {
    this.#polls.delete(pollId.toLowerCase());
  }
}
