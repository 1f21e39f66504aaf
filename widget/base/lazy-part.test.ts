import { describe, expect, it } from 'vitest';
import { lazyPart } from './lazy-part.ts';

describe('a lazily imported part', () => {
  it('is not imported by a look (get without an element): a first paint that does not wait for it never asks', async () => {
    let imports = 0;
    const part = lazyPart(() => {
      imports += 1;
      return Promise.resolve({ words: 'here' });
    });
    expect(part.get()).toBeUndefined();
    expect(imports).toBe(0);
    // An element that waits for it starts the import once, and re-renders when it is here.
    let updates = 0;
    expect(part.get({ requestUpdate: () => (updates += 1) })).toBeUndefined();
    expect(part.get({ requestUpdate: () => (updates += 1) })).toBeUndefined();
    await part.load();
    expect(imports).toBe(1);
    expect(updates).toBe(2);
    expect(part.get()).toEqual({ words: 'here' });
  });
});
