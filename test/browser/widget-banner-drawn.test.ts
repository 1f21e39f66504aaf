// The banner (`<fan-poll-frame>`) on a partner page of another site, its iframe page drawn by the proxy: the poll's
// text is on screen in the frame before any script of the frame runs, and the frame's hydrating widget then takes the
// same card over without replacing its text or moving it; the banner then asks a signed-out fan to sign in. A `current`
// banner's page comes drawn with its club's current poll too, hydrates, and switches by itself when the sandbox's clock
// closes that poll and opens the next (screenshot: dist/screenshots/banner-drawn-current-switched.png).
import type { Browser, BrowserContext, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeServer, listenOnLoopback } from '../../src/node/loopback-server.ts';
import type { Poll } from '../../src/platform/types.ts';
import { SandboxClock } from '../../src/sandbox/clock.ts';
import { seededPollId } from '../../src/sandbox/data/seed-polls.ts';
import { freePort } from '../support/free-port.ts';
import { openRiversidePollFromProxy } from '../support/open-poll.ts';
import { screenshotPath } from '../support/screenshots.ts';
import { startSandboxAndProxy, type SandboxAndProxy } from '../support/stack.ts';
import { nextBannerSwitch } from './banner-switch.ts';
import { watchLayoutShift } from './layout-shift.ts';
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

/** The partner's page with a `current` banner of `partnerIds`, from the proxy whose clock the test moves. */
function currentBannerPage(proxyUrl: string, partnerIds: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Match page</title>
<style>body { margin: 16px; } fan-poll-frame { display: block; min-height: 700px; }</style>
<script type="module" src="${proxyUrl}/widget/fan-polls-frame.js"></script></head>
<body><h1>Northgate hold on at home</h1>
<fan-poll-frame current partner-ids="${partnerIds}"></fan-poll-frame>
<p>The second half began with Northgate pressing high.</p>
</body></html>`;
}

/** The stack of the `current` banner: its sandbox's clock frozen, the proxy's following it (started by its tests). */
const clocked: { stack?: SandboxAndProxy; partnerId: string } = { partnerId: '' };

beforeAll(async () => {
  ensureWidgetBuilt();
  let proxyUrl = '';
  const listening = await listenOnLoopback((request) => {
    const url = new URL(request.url);
    const html =
      url.pathname === '/current'
        ? currentBannerPage(clocked.stack?.proxy.url ?? '', clocked.partnerId)
        : partnerPage(proxyUrl, url.searchParams.get('poll') ?? '');
    return new Response(html, { headers: { 'Content-Type': 'text/html; charset=utf-8' } });
  }, 0);
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
  await clocked.stack?.close();
  await server.close();
});

const isFramePage = (url: string): boolean => url.includes('/widget/embed/poll.html');

/** Holds every request of the hydrating widget until the returned function is called. */
async function holdHydratingWidget(context: BrowserContext): Promise<() => void> {
  let release = (): void => undefined;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await context.route('**/fan-polls-hydrate.js', async (route) => {
    await released;
    await route.continue();
  });
  return () => {
    release();
  };
}

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
    const release = await holdHydratingWidget(context);
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

describe('a current banner’s page drawn by the proxy (Chromium)', () => {
  const ids = {
    walkout: seededPollId('northgate-walkout-song'),
    cafe: seededPollId('northgate-cafe-name'),
  };
  let clock: SandboxClock;
  let seededAt: number;

  beforeAll(async () => {
    clock = new SandboxClock();
    clock.freeze();
    seededAt = clock.now();
    const proxyPort = await freePort();
    clocked.stack = await startSandboxAndProxy({
      sandbox: { clock, simulate: false, extraRedirectUris: [`http://127.0.0.1:${proxyPort}/auth/callback`] },
      proxy: {
        port: proxyPort,
        env: { FAN_POLLS_ALLOWED_ORIGINS: server.url },
        deps: { now: () => clock.now() },
      },
    });
    const polls = (await (await fetch(`${clocked.stack.proxy.url}/api/polls?limit=50`)).json()) as {
      data: Poll[];
    };
    clocked.partnerId = polls.data.find((each) => each.id === ids.walkout)!.partnerId;
  });

  const layoutShiftOf = (target: Page | Frame) =>
    target.evaluate(() => (window as { layoutShift?: number }).layoutShift ?? 0);

  it('arrives with the club’s current poll, hydrates as drawn, then switches when the sandbox’s poll closes', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 900 } });
    await context.addInitScript(watchLayoutShift);
    const page = await context.newPage();
    await page.clock.setFixedTime(seededAt);
    const sandboxPoll = (id: string) => clocked.stack!.sandbox.sandbox.state.polls.find(id)!;
    const framePages: string[] = [];
    page.on('response', (response) => {
      if (isFramePage(response.url())) framePages.push(response.url());
    });
    // The hydrating widget is held until the test has seen the proxy's drawing alone.
    const release = await holdHydratingWidget(context);
    await page.goto(`${server.url}/current`);
    const frame = await bannerFrame(page);
    const card = frame.locator('fan-poll');
    const question = card.locator('[part="question"]');
    await question.waitFor();
    // The proxy's HTML: the club's current poll, before any element code.
    expect((await question.textContent())?.trim()).toBe(sandboxPoll(ids.walkout).question.trim());
    expect(await frame.evaluate(() => customElements.get('fan-poll'))).toBeUndefined();
    expect(
      await card.evaluate((element) => [element.hasAttribute('current'), element.getAttribute('poll-id')]),
    ).toEqual([true, null]);
    expect(framePages).toHaveLength(1);
    expect(framePages[0]).toContain(`current=${clocked.partnerId}`);
    await question.evaluate((node) => {
      (window as { firstPaint?: Node }).firstPaint = node.firstChild ?? node;
    });

    // Hydrated: the same text nodes, live, with the picked poll's id, and following the club's current poll.
    const asked = page.waitForResponse((response) => response.url().includes('/api/polls/current?'));
    release();
    await frame.waitForFunction(() => customElements.get('fan-poll') !== undefined);
    await asked;
    expect(
      await card.evaluate(async (element) => {
        const live = element as HTMLElement & { updateComplete: Promise<boolean>; pollId: string };
        await live.updateComplete;
        return {
          pollId: live.pollId,
          same: live.shadowRoot!.contains((window as { firstPaint?: Node }).firstPaint!),
        };
      }),
    ).toEqual({ pollId: ids.walkout, same: true });
    await card.locator('[part="button"]', { hasText: 'Sign in to vote' }).waitFor();

    // Four days on: the song's poll closed, the café's opened. The banner follows without a reload.
    const switched = await nextBannerSwitch(page);
    clock.set(seededAt + 97 * 3_600_000);
    await page.clock.setFixedTime(seededAt + 97 * 3_600_000);
    expect(await switched()).toEqual(
      expect.objectContaining({ pollId: ids.cafe, previousPollId: ids.walkout }),
    );
    await expect.poll(() => question.textContent()).toContain(sandboxPoll(ids.cafe).question);
    await page
      .locator('fan-poll-frame')
      .screenshot({ path: screenshotPath('banner-drawn-current-switched.png') });
    expect(framePages).toHaveLength(1);

    const shift = (await layoutShiftOf(page)) + (await layoutShiftOf(frame));
    console.info(`layout shift, drawn current banner, first paint to switch: ${shift}`);
    expect(shift).toBeLessThan(0.02);
    await context.close();
  });
});
