// Clicking and typing in puppeteer pages through shadow roots without puppeteer's locators or selector waits, which
// poll with \`new Function\` in the page and are refused by an add-on page's CSP in Firefox ESR 140.
import type { ElementHandle, Frame, Page } from 'puppeteer-core';
import { findTarget, type Target } from './find-target.ts';
import { waitUntil } from './wait-until.ts';

/** The element `target` names, once it is there (polled from Node). */
export async function deepElement(
  page: Page | Frame,
  target: Target,
  timeoutMs = 10_000,
): Promise<ElementHandle> {
  return waitUntil(
    async () => (await page.evaluateHandle(findTarget, target)).asElement() as ElementHandle | null,
    JSON.stringify(target),
    timeoutMs,
  );
}

export async function clickDeep(page: Page | Frame, target: Target): Promise<void> {
  await (await deepElement(page, target)).click();
}

export async function fillDeep(page: Page | Frame, target: Target, text: string): Promise<void> {
  const input = await deepElement(page, target);
  await input.evaluate((node) => {
    (node as HTMLInputElement).value = '';
  });
  await input.type(text);
}
