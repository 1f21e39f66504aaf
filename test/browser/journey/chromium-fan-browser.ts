// The fan's browser as Chromium (playwright-core), on a fresh regular profile with third-party cookies allowed or
// blocked (Chromium's `cookie_controls_mode`).
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Frame, Page } from 'playwright-core';
import { launchFreshProfile } from '../../support/chromium.ts';
import { findTarget, type Target } from '../../support/find-target.ts';
import type { FanBrowser, FanWindow } from './fan-browser.ts';

export async function chromiumFanBrowser(thirdPartyCookies: 'allowed' | 'blocked'): Promise<FanBrowser> {
  const profile = mkdtempSync(join(tmpdir(), 'fan-polls-journey-'));
  const context: BrowserContext = await launchFreshProfile(profile, thirdPartyCookies);
  const errors: string[] = [];
  context.on('console', (message) => {
    if (message.type() === 'error') errors.push(`${message.location().url}: ${message.text()}`);
  });
  context.on('weberror', (error) => errors.push(`uncaught: ${error.error().message}`));
  return {
    engine: 'chromium',
    async open(url) {
      const page = context.pages()[0] ?? (await context.newPage());
      await page.setViewportSize({ width: 1280, height: 900 });
      const window = pageWindow(page, page.mainFrame());
      await window.goto(url);
      return window;
    },
    async popupFrom(action) {
      const [popup] = await Promise.all([context.waitForEvent('page'), action()]);
      await popup.waitForLoadState('domcontentloaded');
      return pageWindow(popup, popup.mainFrame());
    },
    consoleErrors: () => errors,
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
    },
  };
}

function pageWindow(page: Page, frame: Frame): FanWindow {
  const element = async (target: Target) => {
    const found = (await frame.evaluateHandle(findTarget, target)).asElement();
    if (found === null) throw new Error(`No ${JSON.stringify(target)} in ${frame.url()}`);
    return found;
  };
  return {
    goto: async (url) => {
      await page.goto(url);
    },
    // Playwright's types unbox handles in the argument; the journey passes plain JSON only.
    evaluate: (fn, arg) => frame.evaluate(fn as never, arg) as never,
    has: async (target) => (await frame.evaluateHandle(findTarget, target)).asElement() !== null,
    click: async (target) => {
      const found = await element(target);
      // Scrolled to first, as a fan would: Playwright's own scroll before its click was seen undone in the page with
      // the banner's cross-site frame (Chromium 150, third-party cookies blocked), its click then landing on the
      // banner at the card's point.
      await found.evaluate((node) => {
        node.scrollIntoView({ block: 'center' });
      });
      await found.click();
    },
    fill: async (target, text) => {
      await (await element(target)).fill(text);
    },
    frame: async (target) => {
      const inner = await (await element(target)).contentFrame();
      if (inner === null) throw new Error(`${target.chain} is not a frame`);
      return pageWindow(page, inner);
    },
    screenshot: async (path) => {
      await page.screenshot({ path });
    },
    isClosed: () => Promise.resolve(page.isClosed()),
  };
}
