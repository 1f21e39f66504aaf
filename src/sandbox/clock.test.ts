import { describe, expect, it } from 'vitest';
import { SandboxClock } from './clock.ts';

describe('SandboxClock', () => {
  it('jumps to a set instant and keeps running from there', () => {
    const clock = new SandboxClock();
    const target = Date.parse('2030-01-01T00:00:00Z');
    const before = Date.now();
    clock.set(new Date(target));
    const shown = clock.now();
    const elapsed = Date.now() - before;
    expect(shown).toBeGreaterThanOrEqual(target);
    expect(shown - target).toBeLessThanOrEqual(elapsed);
  });

  it('stands still while frozen and advances by hand', () => {
    const clock = new SandboxClock();
    // Frozen first: between a set and a freeze of a running clock a millisecond may pass.
    clock.freeze();
    clock.set(1_000_000);
    expect(clock.now()).toBe(1_000_000);
    clock.advance(5000);
    expect(clock.now()).toBe(1_005_000);
    clock.resume();
    expect(clock.now()).toBeGreaterThanOrEqual(1_005_000);
  });
});
