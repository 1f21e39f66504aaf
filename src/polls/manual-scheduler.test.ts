import { describe, expect, it } from 'vitest';
import { ManualScheduler } from './manual-scheduler.ts';

describe('ManualScheduler', () => {
  it('fires timers in time order, at their time, and not after clearTimeout', async () => {
    const scheduler = new ManualScheduler(1000);
    const fired: string[] = [];
    scheduler.setTimeout(() => fired.push(`b@${scheduler.now()}`), 20);
    scheduler.setTimeout(() => fired.push(`a@${scheduler.now()}`), 10);
    const dropped = scheduler.setTimeout(() => fired.push('dropped'), 15);
    scheduler.clearTimeout(dropped);
    await scheduler.advanceBy(15);
    expect(fired).toEqual(['a@1010']);
    expect(scheduler.now()).toBe(1015);
    await scheduler.advanceBy(100);
    expect(fired).toEqual(['a@1010', 'b@1020']);
    expect(scheduler.pendingTimers).toBe(0);
  });

  it('lets async work started by a timer finish, and fires timers it sets within the window', async () => {
    const scheduler = new ManualScheduler();
    const fired: number[] = [];
    const loop = () => {
      void Promise.resolve().then(() => {
        fired.push(scheduler.now());
        if (fired.length < 3) scheduler.setTimeout(loop, 5);
      });
    };
    scheduler.setTimeout(loop, 5);
    await scheduler.advanceBy(60);
    expect(fired).toEqual([5, 10, 15]);
  });
});
