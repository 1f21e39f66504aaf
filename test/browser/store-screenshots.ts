// The extension's store screenshots, at the size the Chrome Web Store asks for (1280x800, which addons.mozilla.org
// takes too), into `dist/screenshots/store/` (docs/extension-store.md): the partner page with the extension's window
// or popup over it, as the fan sees them. Headless Chromium has no toolbar and draws windows apart, so the window's
// screenshot is laid over the page's in a page of the store's size.
import { readFileSync } from 'node:fs';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { screenshotPath } from '../support/screenshots.ts';

export const storeSize = { width: 1280, height: 800 } as const;

/** Where the toolbar popup opens (under the toolbar, at the right) or the confirmation window (centred). */
export type OverlayPlace = 'toolbar' | 'centre';

const placement: Readonly<Record<OverlayPlace, string>> = {
  toolbar: 'top: 0; right: 24px; border-radius: 0 0 8px 8px;',
  centre: 'top: 50%; left: 50%; transform: translate(-50%, -50%); border-radius: 8px;',
};

/** `page` at the store's size, with `inView` scrolled to the middle: the background of a store screenshot. */
export async function pageAtStoreSize(page: Page, inView: Locator): Promise<Buffer> {
  await page.setViewportSize(storeSize);
  await inView.evaluate((element) => {
    element.scrollIntoView({ block: 'center' });
  });
  return page.screenshot();
}

/**
 * Saves `background` (from `pageAtStoreSize`) with `overlay` (a window's screenshot) drawn over it at `place`, as
 * `dist/screenshots/store/<name>`; returns the file's path.
 */
export async function saveStoreScreenshot(
  context: BrowserContext,
  background: Buffer,
  overlay: Buffer,
  place: OverlayPlace,
  name: string,
): Promise<string> {
  const canvas = await context.newPage();
  await canvas.setViewportSize(storeSize);
  const image = (png: Buffer, style: string) =>
    `<img alt="" src="data:image/png;base64,${png.toString('base64')}" style="position: absolute; ${style}">`;
  await canvas.setContent(
    `<body style="margin: 0; overflow: hidden">${image(background, 'top: 0; left: 0;')}` +
      `${image(overlay, `${placement[place]} box-shadow: 0 8px 28px rgb(0 0 0 / 45%);`)}</body>`,
  );
  const path = screenshotPath(`store/${name}`);
  await canvas.screenshot({ path });
  await canvas.close();
  return path;
}

/** A PNG file's width and height (its IHDR chunk). */
export function pngSize(path: string): { width: number; height: number } {
  const png = readFileSync(path);
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}
