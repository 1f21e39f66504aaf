import { describe, expect, it } from 'vitest';
import { InputDelay } from './input-delay.ts';

describe('the confirmation window’s input delay', () => {
  it('arms only after the window has been in front for the delay, and again after every return', () => {
    let now = 0;
    const delay = new InputDelay(1000, () => now);
    expect(delay.armed).toBe(false);
    delay.restart();
    now = 999;
    expect(delay.armed).toBe(false);
    now = 1000;
    expect(delay.armed).toBe(true);
    delay.disarm();
    expect(delay.armed).toBe(false);
    delay.restart();
    now = 1500;
    expect(delay.armed).toBe(false);
    expect(delay.remainingMs).toBe(500);
  });
});
