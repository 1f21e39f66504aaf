import { TypedStorageItem, type StorageAreaLike } from '../shared/typed-storage.ts';
import { isRecord } from '../../src/contracts/is-record.ts';

/** At most `max` uses in any `windowMs`. */
export interface BudgetRule {
  readonly max: number;
  readonly windowMs: number;
}

/** One budget to draw from: a rule and what it counts for (a tab, a site). */
export type BudgetDraw<Rule extends string> = readonly [rule: Rule, key: string];

/** Use times by rule, then by what the rule counts for. */
type Uses = Record<string, Record<string, number[]>>;

function parseUses(value: unknown): Uses | undefined {
  if (!isRecord(value)) return undefined;
  const uses: Uses = {};
  for (const [rule, byKey] of Object.entries(value)) {
    if (!isRecord(byKey)) continue;
    uses[rule] = {};
    for (const [key, times] of Object.entries(byKey)) {
      if (Array.isArray(times))
        uses[rule][key] = times.filter((time): time is number => typeof time === 'number');
    }
  }
  return uses;
}

/**
 * Sliding-window budgets of what pages can make the extension do (open windows, call the platform with the fan's
 * token), per tab and per site. Kept in `storage.session` so that a worker stopped after 30 s idle does not hand a
 * page a fresh budget; gone when the browser closes.
 */
export class Budgets<Rule extends string> {
  readonly #item: TypedStorageItem<Uses>;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly rules: Readonly<Record<Rule, BudgetRule>>,
    area: StorageAreaLike,
    private readonly now: () => number,
  ) {
    this.#item = new TypedStorageItem(area, 'budgets', {}, parseUses);
  }

  /** True (and counted in every budget) when every budget has room; false (and nothing counted) otherwise. */
  take(...draws: readonly BudgetDraw<Rule>[]): Promise<boolean> {
    const next = this.#queue.then(async () => {
      const now = this.now();
      const stored = await this.#item.get();
      // Only live uses of known rules are kept: the stored record stays as small as the budgets.
      const uses: Uses = {};
      for (const rule of Object.keys(this.rules) as Rule[]) {
        const windowMs = this.rules[rule].windowMs;
        for (const [key, times] of Object.entries(stored[rule] ?? {})) {
          const live = times.filter((at) => now - at < windowMs);
          if (live.length > 0) (uses[rule] ??= {})[key] = live;
        }
      }
      if (draws.some(([rule, key]) => (uses[rule]?.[key]?.length ?? 0) >= this.rules[rule].max)) return false;
      for (const [rule, key] of draws) {
        const byKey = (uses[rule] ??= {});
        byKey[key] = [...(byKey[key] ?? []), now];
      }
      await this.#item.set(uses);
      return true;
    });
    this.#queue = next.catch(() => undefined);
    return next;
  }
}
