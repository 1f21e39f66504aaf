import { describe, expect, it } from 'vitest';
import { FakeStorageArea } from '../testing/fake-browser.ts';
import { Budgets } from './budgets.ts';

const rules = { 'per tab': { max: 2, windowMs: 1000 }, 'per site': { max: 3, windowMs: 1000 } };

describe('budgets', () => {
  it('draws from every named budget at once, or from none', async () => {
    let now = 0;
    const budgets = new Budgets(rules, new FakeStorageArea(), () => now);
    expect(await budgets.take(['per tab', '1'], ['per site', 'a'])).toBe(true);
    expect(await budgets.take(['per tab', '1'], ['per site', 'a'])).toBe(true);
    expect(await budgets.take(['per tab', '1'], ['per site', 'a'])).toBe(false);
    expect(await budgets.take(['per tab', '2'], ['per site', 'a'])).toBe(true);
    // The site's budget is spent, so tab 3 gets nothing and its own budget stays whole.
    expect(await budgets.take(['per tab', '3'], ['per site', 'a'])).toBe(false);
    expect(await budgets.take(['per tab', '3'])).toBe(true);
    expect(await budgets.take(['per tab', '3'])).toBe(true);
    now = 1000;
    expect(await budgets.take(['per tab', '1'], ['per site', 'a'])).toBe(true);
  });

  it('survives a restarted worker: the count is in the storage area, not in memory', async () => {
    const area = new FakeStorageArea();
    const first = new Budgets(rules, area, () => 0);
    await first.take(['per tab', '1']);
    await first.take(['per tab', '1']);
    expect(await new Budgets(rules, area, () => 10).take(['per tab', '1'])).toBe(false);
  });

  it('keeps every other budget’s count when one budget is drawn from', async () => {
    const budgets = new Budgets(rules, new FakeStorageArea(), () => 0);
    await budgets.take(['per tab', '1']);
    await budgets.take(['per tab', '1']);
    await budgets.take(['per site', 'a']);
    expect(await budgets.take(['per tab', '1'])).toBe(false);
  });

  it('counts concurrent draws one after another', async () => {
    const budgets = new Budgets(rules, new FakeStorageArea(), () => 0);
    const results = await Promise.all(Array.from({ length: 5 }, () => budgets.take(['per site', 'a'])));
    expect(results.filter(Boolean)).toHaveLength(3);
  });
});
