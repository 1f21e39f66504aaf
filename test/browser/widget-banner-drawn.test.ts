// The banner (`<fan-poll-frame>`) on a partner page of another site, its iframe page drawn by the proxy: the poll's
// text is on screen in the frame before any script of the frame runs, and the frame's hydrating widget then takes the
// same card over without replacing its text or moving it; the banner then asks a signed-out fan to sign in.
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeServer, listenOnLoopback } from '../../src/node/loopback-server.ts';
import type { Poll } from '../../src/platform/types.ts';
import { openRiversidePollFromProxy } from '../support/open-poll.ts';
import { screenshotPath } from '../support/screenshots.ts';
import type { SandboxAndProxy } from '../support/stack.ts';
import { ensureWidgetBuilt, launchChromium, onAnotherSite, startStackAllowing } from './widget-stack.ts';

let browser: Browser;
let stack: SandboxAndProxy;
let server: { url: string; close: () => Promise<void> };
let poll: Poll;

/** The partner's page: the banner's snippet of docs/embedding.md, loaded from the proxy. */
function partnerPage(proxyUrl: string, pollId: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Match page</title>
<script type="module" src="${proxyUrl}/widget/fan-polls-frame.js"></script></head>
<body><h1>Riverside v Harbour</h1><p>The derby report.</p>
<fan-poll-frame poll-id="${pollId}" campaign="banner"></fan-poll-frame>
</body></html>`;
}

beforeAll(async () => {
  ensureWidgetBuilt();
  let proxyUrl = '';
  const listening = await listenOnLoopback(
    (request) =>
      new Response(partnerPage(proxyUrl, new URL(request.url).searchParams.get('poll') ?? ''), {
        headers: { 'Content-Type': 'text/html; charset=utf-8' },
      }),
    0,
  );
  server = { url: onAnotherSite(listening.url), close: () => closeServer(listening.server) };
  // No simulated fans: the poll's figures do not move while the test looks at the card.
  stack = await startStackAllowing(server.url, { simulate: false });
  proxyUrl = stack.proxy.url;
  poll = await openRiversidePollFromProxy(proxyUrl, 30 * 60_000);
  browser = await launchChromium();
});

afterAll(async () => {
  await browser.close();
  await stack.close();
  await server.close();
});

const isFramePage = (url: string): boolean => url.includes('/widget/embed/poll.html');

async function bannerFrame(page: Page): Promise<Frame> {
  await page.locator('fan-poll-frame iframe').waitFor();
  const frame = await (await page.locator('fan-poll-frame iframe').elementHandle()).contentFrame();
  if (!frame) throw new Error('The banner has no frame.');
  await frame.waitForURL((url) => isFramePage(url.href));
  return frame;
}

describe('the banner’s page drawn by the proxy (Chromium)', () => {
  it('shows the poll’s text in the frame before any of the frame’s scripts runs', async () => {
    const context = await browser.newContext({ viewport: { width: 900, height: 800 } });
    const page = await context.newPage();
    const blocked: string[] = [];
    // Every script the banner's page asks for is refused: what is on screen is the proxy's HTML alone.
    await context.route('**/*.js', async (route) => {
      const request = route.request();
      if (isFramePage(request.frame().url()) || request.url().includes('/fan-polls-hydrate.js')) {
        blocked.push(request.url());
        await route.abort();
      } else await route.continue();
    });
    await page.goto(`${server.url}/?poll=${encodeURIComponent(poll.id)}`);
    const frame = await bannerFrame(page);
    const question = frame.locator('fan-poll [part="question"]');
    await question.waitFor();
    expect((await question.textContent())?.trim()).toBe(poll.question.trim());
    for (const answer of poll.answers)
      await expect
        .poll(() => frame.getByText(answer.answer.trim(), { exact: false }).count())
        .toBeGreaterThan(0);
    expect(await frame.evaluate(() => customElements.get('fan-poll'))).toBeUndefined();
    expect(blocked.some((url) => url.endsWith('/embed/poll.js'))).toBe(true);
    // Styled by its shadow root's own styles (allowed by their hashes): the card has its border and padding.
    expect(
      await frame
        .locator('fan-poll [part="card"]')
        .evaluate((card) => getComputedStyle(card).paddingTop !== '0px'),
    ).toBe(true);
    await page.locator('fan-poll-frame').scrollIntoViewIfNeeded();
    await page.screenshot({ path: screenshotPath('banner-drawn-before-scripts.png') });
    await context.close();
  });

  it('hydrates the drawn card without replacing its text or shifting it, then offers sign-in', async () => {
    const context = await browser.newContext({ viewport: { width: 900, height: 800 } });
    const page = await context.newPage();
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy|hydrat/i.test(message.text())) violations.push(message.text());
    });
    // The hydrating widget is held until the test has marked the drawn card.
    let release = (): void => undefined;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    await context.route('**/fan-polls-hydrate.js', async (route) => {
      await released;
      await route.continue();
    });
    await page.goto(`${server.url}/?poll=${encodeURIComponent(poll.id)}`);
    const frame = await bannerFrame(page);
    await frame.locator('fan-poll [part="question"]').waitFor();
    await frame.evaluate(() => {
      const root = document.querySelector('fan-poll')?.shadowRoot;
      if (!root) throw new Error('The drawn card has no shadow root.');
      const questionNode = [...(root.querySelector('[part="question"]')?.childNodes ?? [])].find(
        (node) => node.nodeType === Node.TEXT_NODE && (node.textContent ?? '').trim() !== '',
      );
      const record = { textBefore: root.textContent, questionNode, shifts: [] as number[] };
      Object.assign(window, { hydration: record });
      new PerformanceObserver((entries) => {
        for (const entry of entries.getEntries())
          record.shifts.push((entry as PerformanceEntry & { value: number }).value);
      }).observe({ type: 'layout-shift', buffered: true });
    });
    expect(await frame.evaluate(() => customElements.get('fan-poll'))).toBeUndefined();
    release();

    await frame.waitForFunction(() => customElements.get('fan-poll') !== undefined);
    const card = frame.locator('fan-poll');
    await card.evaluate(async (element) => {
      await (element as HTMLElement & { updateComplete: Promise<boolean> }).updateComplete;
    });
    await card.locator('[part="button"]', { hasText: 'Sign in to vote' }).waitFor();
    await page.locator('fan-poll-frame').scrollIntoViewIfNeeded();
    await page.screenshot({ path: screenshotPath('banner-drawn-hydrated.png') });

    const hydration = await frame.evaluate(() => {
      const record = (
        window as unknown as {
          hydration: { textBefore: string; questionNode?: Node; shifts: number[] };
        }
      ).hydration;
      const root = document.querySelector('fan-poll')?.shadowRoot;
      return {
        sameQuestionNode:
          !!record.questionNode &&
          root?.querySelector('[part="question"]')?.contains(record.questionNode) === true,
        questionAfter: root?.querySelector('[part="question"]')?.textContent.trim(),
        shifts: record.shifts,
      };
    });
    expect(hydration.sameQuestionNode).toBe(true);
    expect(hydration.questionAfter).toBe(poll.question.trim());
    expect(hydration.shifts.reduce((sum, value) => sum + value, 0)).toBe(0);
    expect(violations).toEqual([]);
    await context.close();
  });
});
