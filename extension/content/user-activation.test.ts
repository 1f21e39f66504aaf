import { afterEach, describe, expect, it } from 'vitest';
import { watchUserActivation, type UserActivationWatch } from './user-activation.ts';

let watch: UserActivationWatch | undefined;
afterEach(() => {
  watch?.stop();
});

/** happy-dom has no user activation: the browser's flag is set by hand here, as trusted input would. */
function setActive(active: boolean): void {
  Object.defineProperty(window.navigator, 'userActivation', {
    value: { isActive: active },
    configurable: true,
  });
}

describe('the content script’s user-activation check', () => {
  it('refuses a script’s synthetic clicks (not trusted, no activation)', () => {
    watch = watchUserActivation(window);
    setActive(false);
    document.body.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    expect(watch.take()).toBe(false);
  });

  it('needs the browser’s activation even after input it saw', () => {
    watch = watchUserActivation(window);
    setActive(false);
    expect(watch.take()).toBe(false);
  });
});
