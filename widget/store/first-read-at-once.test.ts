import { afterEach, describe, expect, it, vi } from 'vitest';
import { firstReadAtOnce } from './first-read-at-once.ts';

afterEach(() => {
  vi.useRealTimers();
});

describe('firstReadAtOnce', () => {
  it('runs the first zero-delay timer as a microtask, once the task that armed it is done', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const clock = firstReadAtOnce();
    const ran: string[] = [];
    clock.setTimeout(() => ran.push('first'), 0);
    ran.push('same task');
    await Promise.resolve();
    expect(ran).toEqual(['same task', 'first']);
  });

  it('leaves every later timer, and any with a delay, to the timer queue', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const clock = firstReadAtOnce();
    const ran: string[] = [];
    clock.setTimeout(() => ran.push('delayed'), 50);
    clock.setTimeout(() => ran.push('first'), 0);
    await Promise.resolve();
    clock.setTimeout(() => ran.push('second'), 0);
    await Promise.resolve();
    expect(ran).toEqual(['first']);
    vi.advanceTimersByTime(50);
    expect(ran).toEqual(['first', 'second', 'delayed']);
  });

  it('does not run a cleared one, and the next zero-delay timer is at once instead', async () => {
    const clock = firstReadAtOnce();
    const ran: string[] = [];
    clock.clearTimeout(clock.setTimeout(() => ran.push('cleared'), 0));
    clock.setTimeout(() => ran.push('rescheduled'), 0);
    await Promise.resolve();
    expect(ran).toEqual(['rescheduled']);
  });
});
