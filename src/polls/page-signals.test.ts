import { afterEach, describe, expect, it, vi } from 'vitest';
import { browserPageSignals, ManualPageSignals } from './page-signals.ts';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('browserPageSignals', () => {
  it('counts a page without a document as visible and online', () => {
    const signals = browserPageSignals();
    expect(signals.isVisible()).toBe(true);
    expect(signals.isOnline()).toBe(true);
  });

  it('reads visibilityState and navigator.onLine, and hears their events until stopped', () => {
    const doc = Object.assign(new EventTarget(), { visibilityState: 'visible' });
    const win = new EventTarget();
    const nav = { onLine: true };
    vi.stubGlobal('document', doc);
    vi.stubGlobal('window', win);
    vi.stubGlobal('navigator', nav);
    const signals = browserPageSignals();
    let heard = 0;
    const stop = signals.onChange(() => (heard += 1));
    doc.visibilityState = 'hidden';
    doc.dispatchEvent(new Event('visibilitychange'));
    nav.onLine = false;
    win.dispatchEvent(new Event('offline'));
    expect([signals.isVisible(), signals.isOnline(), heard]).toEqual([false, false, 2]);
    stop();
    win.dispatchEvent(new Event('online'));
    expect(heard).toBe(2);
  });
});

describe('ManualPageSignals', () => {
  it('tells its listeners about every change', () => {
    const signals = new ManualPageSignals();
    let heard = 0;
    const stop = signals.onChange(() => (heard += 1));
    signals.setVisible(false);
    signals.setOnline(false);
    expect([signals.isVisible(), signals.isOnline(), heard]).toEqual([false, false, 2]);
    stop();
    signals.setOnline(true);
    expect(heard).toBe(2);
  });
});
