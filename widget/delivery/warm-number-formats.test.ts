import { afterEach, describe, expect, it, vi } from 'vitest';
import { warmNumberFormatsAfterPaint } from './warm-number-formats.ts';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('warmNumberFormatsAfterPaint', () => {
  it('makes the number format of the language after the next frame, in a task of its own', () => {
    vi.useFakeTimers();
    const frames: FrameRequestCallback[] = [];
    vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => frames.push(callback));
    const made = vi.spyOn(Intl, 'NumberFormat');
    warmNumberFormatsAfterPaint('fr');
    expect(made).not.toHaveBeenCalled();
    frames.shift()?.(0);
    expect(made).not.toHaveBeenCalled();
    vi.runAllTimers();
    expect(made).toHaveBeenCalledWith('fr');
  });

  it('throws nothing into the page for a language the browser does not know', () => {
    vi.useFakeTimers();
    vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => {
      callback(0);
    });
    expect(() => {
      warmNumberFormatsAfterPaint('not a language!');
      vi.runAllTimers();
    }).not.toThrow();
  });
});
