// Waiting on a condition from Node, by polling: what puppeteer's `waitForFunction` does in the page, where an
// extension page's CSP refuses it (Firefox ESR 140: `EvalError: call to Function() blocked by CSP`).

/** Polls `condition` every 100 ms until it is truthy (returned) or `timeoutMs` passes (throws, naming `what`). */
export async function waitUntil<T>(
  condition: () => Promise<T>,
  what: string,
  timeoutMs = 15_000,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  for (;;) {
    last = await condition().catch(() => undefined);
    if (last) return last;
    if (Date.now() > deadline) throw new Error(`Timed out after ${String(timeoutMs)} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
