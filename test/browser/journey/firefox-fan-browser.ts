// The fan's browser as Firefox ESR (puppeteer-core over WebDriver BiDi), with its default cookie policy (Total
// Cookie Protection) or third-party cookies blocked (`network.cookie.cookieBehavior` 1).
import puppeteer, {
  type Browser,
  type ElementHandle,
  type Frame,
  type Page,
  type Target as BrowserTarget,
} from 'puppeteer-core';
import { waitUntil } from '../../support/wait-until.ts';
import { firefoxNoNetworkPrefs, firefoxPath } from '../../support/firefox.ts';
import { findTarget, type Target } from '../../support/find-target.ts';
import type { FanBrowser, FanWindow } from './fan-browser.ts';

/** Firefox's `network.cookie.cookieBehavior`: 5 is its default (partitioned third-party cookies), 1 blocks them. */
const cookieBehavior = { allowed: 5, blocked: 1 } as const;

export async function firefoxFanBrowser(thirdPartyCookies: 'allowed' | 'blocked'): Promise<FanBrowser> {
  const browser: Browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: firefoxPath(),
    headless: true,
    // Firefox's BiDi has no viewport emulation: the window is the viewport.
    defaultViewport: null,
    args: ['--width=1280', '--height=900'],
    env: { ...process.env, MOZ_REMOTE_SETTINGS_DEVTOOLS: '1' },
    extraPrefsFirefox: {
      ...firefoxNoNetworkPrefs,
      'network.cookie.cookieBehavior': cookieBehavior[thirdPartyCookies],
      // Popups opened by a click open as windows, as a fan's would.
      'dom.disable_open_during_load': true,
    },
  });
  const errors: string[] = [];
  const watch = (page: Page) => {
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(`${message.location().url ?? ''}: ${message.text()}`);
    });
    page.on('pageerror', (error) =>
      errors.push(`uncaught: ${error instanceof Error ? error.message : String(error)}`),
    );
  };
  for (const page of await browser.pages()) watch(page);
  browser.on('targetcreated', (target: BrowserTarget) => {
    void target.page().then((page) => {
      if (page) watch(page);
    });
  });
  return {
    engine: 'firefox',
    async open(url) {
      const page = (await browser.pages())[0] ?? (await browser.newPage());
      const window = pageWindow(page, page.mainFrame());
      await window.goto(url);
      return window;
    },
    async popupFrom(action) {
      const before = new Set(await browser.pages());
      await action();
      const popup = await waitUntil(
        async () => (await browser.pages()).find((page) => !before.has(page)),
        'the sign-in popup',
      );
      return pageWindow(popup, popup.mainFrame());
    },
    consoleErrors: () => errors,
    close: () => browser.close(),
  };
}

/** Where a frame's viewport is on the page's, in CSS pixels; `reveal` scrolls its iframe (and theirs) into view. */
type FrameOrigin = (reveal: boolean) => Promise<{ x: number; y: number }>;

const topOrigin: FrameOrigin = () => Promise.resolve({ x: 0, y: 0 });

/**
 * `origin`: for a frame inside the page, where its viewport is; a click there goes to that point of the page (a
 * real, trusted click), as puppeteer's own click asks Firefox ESR's BiDi for the frame's element, which it refuses.
 */
function pageWindow(page: Page, frame: Frame, origin?: FrameOrigin): FanWindow {
  const element = async (target: Target) => {
    const found = (await frame.evaluateHandle(findTarget, target)).asElement();
    if (found === null) throw new Error(`No ${JSON.stringify(target)} in ${frame.url()}`);
    return found as ElementHandle;
  };
  return {
    goto: async (url) => {
      await page.goto(url);
    },
    // Puppeteer's types unbox handles in the argument; the journey passes plain JSON only.
    evaluate: (fn, arg) => frame.evaluate(fn as never, arg),
    has: async (target) => (await frame.evaluateHandle(findTarget, target)).asElement() !== null,
    click: async (target) => {
      const found = await element(target);
      if (!origin) return found.click();
      await origin(true);
      // Scrolling inside the frame may scroll the page too: where the frame is is read after.
      await found.evaluate((node) => {
        node.scrollIntoView({ block: 'nearest' });
      });
      const at = await origin(false);
      const box = await found.evaluate((node) => {
        const { x, y, width, height } = node.getBoundingClientRect();
        return { x: x + width / 2, y: y + height / 2 };
      });
      await page.mouse.click(at.x + box.x, at.y + box.y);
    },
    fill: async (target, text) => {
      const input = await element(target);
      await input.evaluate((node) => {
        (node as HTMLInputElement).value = '';
      });
      await input.type(text);
    },
    // Firefox ESR's BiDi has no `context` locator (puppeteer's `contentFrame`): the frame is found by its URL.
    frame: async (target) => {
      const src = await (await element(target)).evaluate((node) => (node as HTMLIFrameElement).src);
      const inner = await waitUntil(
        () => Promise.resolve(frame.childFrames().find((child) => child.url() === src)),
        `the frame of ${target.chain}`,
      );
      const innerOrigin: FrameOrigin = async (reveal) => {
        const outer = await (origin ?? topOrigin)(reveal);
        const iframe = await element(target);
        const at = await iframe.evaluate((node, scroll) => {
          if (scroll) node.scrollIntoView({ block: 'center' });
          const box = node.getBoundingClientRect();
          return { x: box.x + node.clientLeft, y: box.y + node.clientTop };
        }, reveal);
        return { x: outer.x + at.x, y: outer.y + at.y };
      };
      return pageWindow(page, inner, innerOrigin);
    },
    screenshot: async (path) => {
      await page.screenshot({ path: path });
    },
    isClosed: () => Promise.resolve(page.isClosed()),
  };
}
