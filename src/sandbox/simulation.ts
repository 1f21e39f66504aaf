import { sandboxChoices } from './choices.ts';
import type { PollStore } from './data/poll-store.ts';
import { seededRandom } from './data/random.ts';

/**
 * Simulated fans who keep voting in open polls, so that percentages visibly move. Tests drive it with
 * `simulateVotes(n)`; `start()` (called by serveSandbox) runs it on a real timer until `stop()`.
 */
export class VoteSimulation {
  #random: () => number;
  #timer: ReturnType<typeof setInterval> | undefined;
  /** Started and not stopped: a rate set to 0 pauses the timer, a positive rate brings it back. */
  #wanted = false;
  #castCount = 0;

  constructor(
    private readonly polls: PollStore,
    /** Votes a minute in every open poll; 0 turns the timer off. */
    public votesPerMinute: number = sandboxChoices.simulatedVotesPerMinute,
    private readonly seed: number = sandboxChoices.simulationSeed,
  ) {
    this.#random = seededRandom(seed);
  }

  get running(): boolean {
    return this.#timer !== undefined;
  }

  /** How many simulated votes were cast since the last reset. */
  get castCount(): number {
    return this.#castCount;
  }

  /** Casts `count` rounds: in each, one simulated fan votes in every open poll. Returns the votes cast. */
  simulateVotes(count = 1): number {
    let cast = 0;
    for (let round = 0; round < count; round += 1) {
      for (const poll of this.polls.openPolls()) {
        const answer = poll.answers[Math.floor(this.#random() * poll.answers.length)];
        if (!answer) continue;
        // Most fans hold a few tokens, some hold many: a skewed weight, capped by the poll's limit.
        const tokens = 1 + Math.floor(this.#random() ** 3 * 400);
        this.#castCount += 1;
        this.polls.recordSimulatedVote(
          poll,
          answer.id,
          `simulated-fan-${this.#castCount}`,
          Math.min(tokens, poll.tokenLimit),
        );
        cast += 1;
      }
    }
    return cast;
  }

  /** Starts the real timer (a no-op when already running or the rate is 0). The timer never keeps Node alive. */
  start(): void {
    this.#wanted = true;
    if (this.#timer !== undefined || this.votesPerMinute <= 0) return;
    this.#timer = setInterval(() => this.simulateVotes(1), 60_000 / this.votesPerMinute);
    this.#timer.unref();
  }

  stop(): void {
    this.#wanted = false;
    this.#pause();
  }

  /** A new rate; a simulation that was started runs at it (0 pauses it, a positive rate resumes it). */
  setRate(votesPerMinute: number): void {
    const wanted = this.#wanted;
    this.#pause();
    this.votesPerMinute = votesPerMinute;
    if (wanted) this.start();
  }

  #pause(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /** Replays from the seed again (after a reset of the polls). */
  reset(): void {
    this.#random = seededRandom(this.seed);
    this.#castCount = 0;
  }
}
