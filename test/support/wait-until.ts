// Waiting on a condition from Node, by polling: what puppeteer's `waitForFunction` does in the page, where an
// extension page's CSP refuses it (Firefox ESR 140: `EvalError: call to Function() blocked by CSP`).

/**
 * Polls `condition` every `intervalMs` until it is truthy (returned) or `timeoutMs` passes (throws, naming `what`).
 * The one loop of the tests that pauses between its looks (src/tests-wait-on-events.test.ts).
 */
export async function waitUntil<T>(
  condition: () => Promise<T> | T,
  what: string,
  timeoutMs = 15_000,
  intervalMs = 100,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  for (;;) {
    last = await Promise.resolve()
      .then(condition)
      .catch(() => undefined);
    if (last) return last;
    if (Date.now() > deadline) throw new Error(`Timed out after ${String(timeoutMs)} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
