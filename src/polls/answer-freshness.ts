/**
 * How long a poll answer of the proxy stays the newest it can give, from its `Age` (whole seconds since the proxy
 * loaded it) and `Cache-Control: s-maxage` (how long the proxy keeps it): in ms, 0 or less when the proxy's copy is
 * stale already (its refresh is under way); NaN when the answer does not say both (another source, a CDN).
 */
export function freshForMs(headers: Headers): number {
  return (
    (Number(/s-maxage=(\d+)/.exec(headers.get('cache-control') ?? '')?.[1]) -
      Number(headers.get('age') ?? NaN)) *
    1000
  );
}

/**
 * How long to wait before reading an open poll again, after an answer with `freshForMs` left (NaN or undefined: the
 * phase's pace, `paceMs`). `Age` is rounded down, so the copy is replaced up to a second before it says: the read goes
 * 0.6 s before (once more 0.4 s later if the copy was still fresh), and 0.4 s after a stale answer, when the proxy's
 * refresh is in. A change at the platform is then on screen within the freshness window plus about 0.8 s and the
 * answers' round trips, with no more platform reads (the proxy refreshes as before).
 */
export function delayAfterAnswer(freshForMs: number | undefined, paceMs: number): number {
  return Math.max((freshForMs ?? NaN) - 600, 400) || paceMs;
}
