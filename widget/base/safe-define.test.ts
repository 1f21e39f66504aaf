import { afterEach, describe, expect, it, vi } from 'vitest';
import { FanElement } from './fan-element.ts';
import { safeDefine } from './safe-define.ts';

describe('safeDefine', () => {
  afterEach(() => vi.restoreAllMocks());

  it('defines a tag once and ignores a second copy of the same version silently', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    class First extends FanElement {}
    class Second extends FanElement {}
    safeDefine('fan-test-same', First);
    safeDefine('fan-test-same', Second);
    expect(customElements.get('fan-test-same')).toBe(First);
    expect(warn).not.toHaveBeenCalled();
  });

  it('warns when the second copy is another version', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    class First extends FanElement {}
    class Other extends HTMLElement {
      static readonly fanPollsVersion = '9.9.9';
    }
    customElements.define('fan-test-other', Other);
    safeDefine('fan-test-other', First);
    expect(customElements.get('fan-test-other')).toBe(Other);
    expect(warn).toHaveBeenCalledOnce();
    expect(String(warn.mock.calls[0]![0])).toContain('9.9.9');
  });
});
