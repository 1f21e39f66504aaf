// The fan's browser as WebKitGTK (WebKitWebDriver, W3C WebDriver classic), with its default cookie policy, which
// refuses third-party cookies as Safari does. WebDriver addresses one window and frame at a time, so each window
// here switches to itself (and down its frames) before every command.
import { waitUntil } from '../../support/wait-until.ts';
import { writeFile } from 'node:fs/promises';
import {
  isWebDriverElement,
  type WebDriverElement,
  type WebDriverSession,
} from '../../support/webdriver-session.ts';
import type { WebKitDriver, WebKitSessionOptions } from '../../support/webkit.ts';
import { findTarget, type Target } from '../../support/find-target.ts';
import type { FanBrowser, FanWindow } from './fan-browser.ts';

export async function webkitFanBrowser(
  driver: WebKitDriver,
  options?: WebKitSessionOptions,
): Promise<FanBrowser> {
  const session = await driver.newSession(options);
  return {
    engine: 'webkit',
    async open(url) {
      const [handle] = await session.windowHandles();
      const window = driverWindow(session, handle ?? '', []);
      await window.goto(url);
      return window;
    },
    async popupFrom(action) {
      const before = new Set(await session.windowHandles());
      await action();
      const handle = await waitUntil(
        async () => (await session.windowHandles()).find((each) => !before.has(each)),
        'the sign-in popup',
      );
      return driverWindow(session, handle, []);
    },
    consoleErrors: () => [],
    close: () => session.close(),
  };
}

function driverWindow(session: WebDriverSession, handle: string, frames: readonly Target[]): FanWindow {
  /**
   * Makes this window's document the current browsing context. `reveal`: each frame on the way is scrolled into
   * view first, as WebKitWebDriver scrolls a clicked element into its own frame's view only.
   */
  const enter = async (reveal = false) => {
    await session.switchToWindow(handle);
    await session.switchToFrame(null);
    for (const frame of frames) {
      const element = await find(frame);
      if (reveal)
        await session.execute((node) => {
          // WebDriver hands the function the element the reference names.
          (node as unknown as Element).scrollIntoView({ block: 'center' });
        }, element);
      await session.switchToFrame(element);
    }
  };
  const find = async (target: Target): Promise<WebDriverElement> => {
    const found = await session.execute(findTarget, target);
    if (!isWebDriverElement(found)) throw new Error(`No ${JSON.stringify(target)}`);
    return found;
  };
  return {
    goto: async (url) => {
      await enter();
      await session.navigate(url);
    },
    evaluate: async <A, R>(fn: (arg: A) => R, arg: A): Promise<Awaited<R>> => {
      await enter();
      return session.execute(fn, arg);
    },
    has: async (target) => {
      await enter();
      return isWebDriverElement(await session.execute(findTarget, target));
    },
    click: async (target) => {
      await enter(true);
      await session.click(await find(target));
    },
    fill: async (target, text) => {
      await enter(true);
      await session.fill(await find(target), text);
    },
    frame: (target) => Promise.resolve(driverWindow(session, handle, [...frames, target])),
    screenshot: async (path) => {
      await session.switchToWindow(handle);
      await session.switchToFrame(null);
      await writeFile(path, await session.screenshot());
    },
    isClosed: async () => !(await session.windowHandles()).includes(handle),
  };
}
