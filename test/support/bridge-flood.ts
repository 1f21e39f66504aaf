// A flood of the extension's page bridge from a bridge page of the extension's browser tests (one that defines
// `window.askExtension`), over once the requests the bridge took in have answered rather than at the deadline of those
// it dropped, which never answer.
import { maxInFlight, maxWaiting } from '../../extension/content/page-bridge.ts';

/** How many of one frame's requests the bridge holds at once (in flight and waiting); it drops the rest unanswered. */
export const bridgeCapacity = maxInFlight + maxWaiting;

/** An outcome as the page's `askExtension` resolves it: the extension's answer, or `{ timeout: true }`. */
export type FloodOutcome = {
  ok?: boolean;
  timeout?: true;
  result?: unknown;
  error?: { code: string; message?: string; reason?: string };
};

export interface Flood {
  readonly request: unknown;
  readonly count: number;
  /**
   * Once this many requests have answered, the flood is over when no other answer comes for `quietMs`: a request that
   * reaches the bridge after an earlier one has answered can still be taken in, so more than its capacity may answer.
   */
  readonly answeredAtLeast: number;
  readonly quietMs: number;
  /** The deadline of every request: those still unanswered then are timeouts. */
  readonly timeoutMs: number;
}

/**
 * Runs in the page (pass it to `evaluate` with a `Flood`): asks `count` times at once and resolves with every outcome,
 * in order, once all have answered, or once `answeredAtLeast` have and no answer has come for `quietMs` since the last
 * (the others, dropped by the bridge, count as timeouts), or at `timeoutMs`.
 */
export function floodInPage({
  request,
  count,
  answeredAtLeast,
  quietMs,
  timeoutMs,
}: Flood): Promise<FloodOutcome[]> {
  const ask = (window as unknown as { askExtension: (r: unknown, t: number) => Promise<FloodOutcome> })
    .askExtension;
  return new Promise((resolve) => {
    const outcomes: FloodOutcome[] = Array.from({ length: count }, () => ({ timeout: true }));
    let answered = 0;
    let done = false;
    let quiet: ReturnType<typeof setTimeout> | undefined;
    const finish = (): void => {
      if (done) return;
      done = true;
      clearTimeout(quiet);
      clearTimeout(deadline);
      resolve(outcomes);
    };
    const deadline = setTimeout(finish, timeoutMs);
    for (let n = 0; n < count; n += 1) {
      void ask(request, timeoutMs).then((outcome) => {
        if (done || outcome.timeout === true) return;
        outcomes[n] = outcome;
        answered += 1;
        clearTimeout(quiet);
        if (answered === count) finish();
        else if (answered >= answeredAtLeast) quiet = setTimeout(finish, quietMs);
      });
    }
  });
}
