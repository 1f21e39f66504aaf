// The fan's tap on WebKitGTK's own prompt (MiniBrowser's bar above the page: "Do you want to allow … to use cookies
// while browsing …?" No / Yes), which no WebDriver command answers: the bar is seen by the page's height shrinking
// (an event the page reports), then `xdotool` clicks its button on the private X display.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { FanWindow } from '../browser/journey/fan-browser.ts';
import { waitUntil } from './wait-until.ts';

export function xdotoolInstalled(): boolean {
  return existsSync('/usr/bin/xdotool');
}

/** How long a tap on the bar's button may take to close it, and how many taps the fan makes. */
const promptPatienceMs = 10_000;
const promptTaps = 3;

/** The page's viewport and window, as the top-level document sees them. */
function viewport() {
  return { inner: window.innerHeight, outer: window.outerHeight, width: window.outerWidth };
}

/**
 * Runs `ask` (the click that asks), waits for the browser's bar and answers it; returns once the bar is gone. `page`:
 * the top-level window (the bar shrinks its viewport).
 */
export async function answerWebKitPrompt(
  display: string,
  page: FanWindow,
  ask: () => Promise<void>,
  answer: 'yes' | 'no',
): Promise<void> {
  const before = await page.evaluate(viewport, undefined);
  await ask();
  const shown = await waitUntil(async () => {
    const now = await page.evaluate(viewport, undefined);
    return now.inner < before.inner ? now : undefined;
  }, 'the browser’s storage access prompt');
  // The bar sits between the toolbar and the page; its buttons at its right end, Yes last.
  const barTop = before.outer - before.inner;
  const y = barTop + Math.round((before.inner - shown.inner) / 2);
  const x = shown.width - (answer === 'yes' ? 49 : 140);
  const closed = async () => (await page.evaluate(viewport, undefined)).inner === before.inner;
  // A click while the bar is still being laid out can miss its button (seen once on a loaded runner: the bar stayed):
  // the fan taps again while the bar is there.
  for (let attempt = 1; ; attempt += 1) {
    execFileSync('xdotool', ['mousemove', String(x), String(y), 'click', '1'], {
      env: { ...process.env, DISPLAY: display },
    });
    try {
      await waitUntil(closed, 'the prompt to close', promptPatienceMs);
      return;
    } catch (error) {
      if (await closed()) return;
      if (attempt === promptTaps) throw error;
    }
  }
}
