/**
 * Shares of a whole, rounded so that the shown numbers add up to exactly 100 at the shown precision (largest
 * remainder method, also called Hamilton's method). Weights are token counts: negative or non-finite ones count as 0.
 */
export function largestRemainderPercentages(weights: readonly number[], decimals = 0): number[] {
  const places = normaliseDecimals(decimals);
  const clean = weights.map((weight) => (Number.isFinite(weight) && weight > 0 ? weight : 0));
  const total = clean.reduce((sum, weight) => sum + weight, 0);
  if (total <= 0 || !Number.isFinite(total)) return clean.map(() => 0);

  // Work in whole units of the last shown digit (tenths when decimals = 1): 100 % is 1000 of them.
  const scale = 10 ** places;
  const wholeUnits = 100 * scale;
  const quotas = clean.map((weight) => (weight / total) * wholeUnits);
  const units = quotas.map((quota) => Math.floor(quota));
  let leftover = wholeUnits - units.reduce((sum, unit) => sum + unit, 0);

  // Largest remainders first; equal remainders go to the earlier answer so the result is deterministic.
  const order = quotas
    .map((quota, index) => ({ index, remainder: quota - Math.floor(quota), weight: clean[index] ?? 0 }))
    .filter((entry) => entry.weight > 0)
    .sort((a, b) => b.remainder - a.remainder || a.index - b.index);
  // Cycles only when floating-point error leaves more units than answers (never in exact arithmetic).
  for (let position = 0; leftover > 0 && order.length > 0; position = (position + 1) % order.length) {
    const entry = order[position];
    if (entry === undefined) break;
    units[entry.index] = (units[entry.index] ?? 0) + 1;
    leftover -= 1;
  }
  return units.map((unit) => unit / scale);
}

function normaliseDecimals(decimals: number): number {
  if (!Number.isFinite(decimals)) return 0;
  return Math.min(4, Math.max(0, Math.trunc(decimals)));
}
