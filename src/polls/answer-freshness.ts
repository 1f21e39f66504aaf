/**
 * How long a poll answer of the proxy stays the newest it can give, from its `Age` (whole seconds since the proxy
 * loaded it) and `Cache-Control: s-maxage` (how long the proxy keeps it): in ms, 0 or less when the proxy's copy is
 * stale already (its refresh is under way); undefined when the answer does not say both (another source, a CDN).
 */
export function freshForMs(headers: Headers): number | undefined {
  const age = headers.get('age');
  const keep = /s-maxage=(\d+)/.exec(headers.get('cache-control') ?? '')?.[1];
  return keep && age && /^\d+$/.test(age) ? (Number(keep) - Number(age)) * 1000 : undefined;
}

/**
 * When to read again, after an answer with `freshForMs` left: `Age` is rounded down, so the copy is replaced up to a
 * second before that; the read goes 0.6 s before (once more 0.4 s later if the copy was still fresh), and 0.4 s after a
 * stale answer, when the proxy's refresh is in. A change at the platform is on screen within the freshness window plus
 * about 0.8 s and the answers' round trips, with no more platform reads (the proxy refreshes as before).
 */
export function delayAfterAnswer(freshForMs: number): number {
  return Math.max(freshForMs - 600, 400);
}
