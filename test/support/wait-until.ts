// Waiting on a condition from Node, by polling: what puppeteer's `waitForFunction` does in the page, where an
// extension page's CSP refuses it (Firefox ESR 140: `EvalError: call to Function() blocked by CSP`).

/**
 * Polls `condition` every `intervalMs` until it is truthy (returned) or `timeoutMs` passes (throws, naming `what`).
 * A look that does not answer by then (a browser that stopped answering its driver) fails the same way, and says so.
 * The one loop of the tests that pauses between its looks (src/tests-wait-on-events.test.ts).
 */
const noAnswer = Symbol('no answer');
/** How long a look that started near the deadline may take to answer (a browser's driver on a loaded runner). */
const lookGraceMs = 2_000;

export async function waitUntil<T>(
  condition: () => Promise<T> | T,
  what: string,
  timeoutMs = 15_000,
  intervalMs = 100,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  const timedOut = (detail = '') =>
    new Error(`Timed out after ${String(timeoutMs)} ms waiting for ${what}${detail}`);
  for (;;) {
    let unanswered: ReturnType<typeof setTimeout> | undefined;
    const look = Promise.resolve()
      .then(condition)
      .catch(() => undefined);
    const lookEnds = new Promise<typeof noAnswer>((resolve) => {
      unanswered = setTimeout(resolve, Math.max(deadline - Date.now(), 0) + lookGraceMs, noAnswer);
    });
    const answer = await Promise.race([look, lookEnds]);
    clearTimeout(unanswered);
    if (answer === noAnswer) throw timedOut(' (its last look got no answer)');
    if (answer) return answer;
    if (Date.now() > deadline) throw timedOut();
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
