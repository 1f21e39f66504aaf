// A `<fan-poll current partner-ids>` card on a partner page of another site, with the one-line script tag: it shows
// the club's open poll, and switches by itself, without a reload, when the sandbox's clock closes it and opens the
// next, then again. The page's clock and the proxy's follow the sandbox's. The layout shift of the whole visit stays
// below 0.02 (the page reserves the card's height), each switch is announced in a polite live region and fires
// `fan-poll-current-changed`. Screenshots: dist/screenshots/current-<n>-<state>.png.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeServer, listenOnLoopback } from '../../src/node/loopback-server.ts';
import type { Poll } from '../../src/platform/types.ts';
import { SandboxClock } from '../../src/sandbox/clock.ts';
import { seededPollId } from '../../src/sandbox/data/seed-polls.ts';
import { phaseAt } from '../../src/sandbox/data/poll-tally.ts';
import { widgetVersion } from '../../widget/base/widget-version.ts';
import { freePort } from '../support/free-port.ts';
import type { PageServer } from '../support/page-server.ts';
import { screenshotPath } from '../support/screenshots.ts';
import { startSandboxAndProxy, type SandboxAndProxy } from '../support/stack.ts';
import { ensureWidgetBuilt, launchChromium } from './widget-stack.ts';

const hour = 3_600_000;
const day = 24 * hour;
const ids = {
  walkout: seededPollId('northgate-walkout-song'),
  cafe: seededPollId('northgate-cafe-name'),
  stadium: seededPollId('northgate-stadium-naming'),
};

let browser: Browser;
let stack: SandboxAndProxy;
let page: PageServer;
let clock: SandboxClock;
let seededAt: number;
let northgate = '';

/**
 * A match report with the card in it (`/`), or the banner (`/banner`), its height reserved, and text under it that a
 * growing card would push.
 */
function partnerPage(proxyUrl: string, path: string): string {
  const widget = `${proxyUrl}/widget/v${widgetVersion}`;
  const embed =
    path === '/banner'
      ? `<script type="module" src="${widget}/fan-polls-frame.js"></script>`
      : `<script type="module" src="${widget}/fan-polls.js" data-proxy="${proxyUrl}"></script>`;
  const element =
    path === '/banner'
      ? `<fan-poll-frame current partner-ids="${northgate}"></fan-poll-frame>`
      : `<fan-poll current partner-ids="${northgate}" eager></fan-poll>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Match report</title>
<style>body { font: 16px/1.5 sans-serif; margin: 16px; } fan-poll, fan-poll-frame { display: block; min-height: 700px; }</style>
${embed}</head>
<body><h1>Northgate hold on at home</h1>${element}
<p id="after">The second half began with Northgate pressing high, and the equaliser came from a corner.</p>
</body></html>`;
}

beforeAll(async () => {
  ensureWidgetBuilt();
  let proxyUrl = '';
  const served = await listenOnLoopback(
    (request) =>
      new Response(partnerPage(proxyUrl, new URL(request.url).pathname), {
        headers: { 'Content-Type': 'text/html; charset=utf-8' },
      }),
    0,
    'localhost',
  );
  page = { url: served.url, close: () => closeServer(served.server) };
  clock = new SandboxClock();
  clock.freeze();
  seededAt = clock.now();
  const proxyPort = await freePort();
  stack = await startSandboxAndProxy({
    sandbox: {
      clock,
      simulate: false,
      extraRedirectUris: [`http://127.0.0.1:${proxyPort}/auth/callback`],
    },
    proxy: {
      port: proxyPort,
      env: { FAN_POLLS_ALLOWED_ORIGINS: page.url },
      deps: { now: () => clock.now() },
    },
  });
  proxyUrl = stack.proxy.url;
  const polls = (await (await fetch(`${proxyUrl}/api/polls?limit=50`)).json()) as { data: Poll[] };
  northgate = polls.data.find((poll) => poll.id === ids.walkout)!.partnerId;
  browser = await launchChromium();
});

afterAll(async () => {
  await browser.close();
  await stack.close();
  await page.close();
});

/** Moves the sandbox's clock, and the page's with it (the proxy's follows the sandbox's). */
async function setTime(tab: Page | undefined, at: number): Promise<void> {
  clock.set(at);
  await tab?.clock.setFixedTime(at);
}

/** The next `fan-poll-current-changed` of the page, waited for from now. */
async function nextSwitch(tab: Page): Promise<() => Promise<{ pollId: string; previousPollId: string }>> {
  await tab.evaluate(() => {
    const holder = window as { nextSwitch?: Promise<unknown> };
    holder.nextSwitch = new Promise((resolve) => {
      addEventListener(
        'fan-poll-current-changed',
        (event) => {
          resolve(event.detail);
        },
        { once: true },
      );
    });
  });
  return () =>
    tab.evaluate(
      () => (window as { nextSwitch?: Promise<{ pollId: string; previousPollId: string }> }).nextSwitch!,
    );
}

describe('a current card', () => {
  it('shows the club’s open poll, then switches by itself as polls close and open, without a reload', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 900 } });
    const tab = await context.newPage();
    await tab.clock.setFixedTime(seededAt);
    await tab.addInitScript(() => {
      const shifts = window as { layoutShift?: number; pageLoads?: number };
      shifts.layoutShift = 0;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as (PerformanceEntry & {
          value: number;
          hadRecentInput: boolean;
        })[])
          if (!entry.hadRecentInput) shifts.layoutShift! += entry.value;
      }).observe({ type: 'layout-shift', buffered: true });
      shifts.pageLoads = (Number(sessionStorage.getItem('loads')) || 0) + 1;
      sessionStorage.setItem('loads', String(shifts.pageLoads));
    });
    await tab.goto(page.url);
    const card = tab.locator('fan-poll');
    const question = card.locator('[part="question"]');
    const sandboxPoll = (id: string) => stack.sandbox.sandbox.state.polls.find(id)!;

    // Northgate's walk-out song is open; the café's name opens in four days.
    await expect.poll(() => question.textContent()).toContain(sandboxPoll(ids.walkout).question);
    expect(await card.locator('[part="phase"]').textContent()).toMatch(/^Open · Closes in/);
    await card.screenshot({ path: screenshotPath('current-1-open.png') });

    // Four days on: the song's poll closed, the café's opened. The card follows without a reload.
    let switched = await nextSwitch(tab);
    await setTime(tab, seededAt + 97 * hour);
    expect(phaseAt(sandboxPoll(ids.walkout), clock.now())).toBe('disclosed');
    expect(phaseAt(sandboxPoll(ids.cafe), clock.now())).toBe('open');
    expect(await switched()).toEqual(
      expect.objectContaining({ pollId: ids.cafe, previousPollId: ids.walkout }),
    );
    await expect.poll(() => question.textContent()).toContain(sandboxPoll(ids.cafe).question);
    expect(await card.locator('[part="phase"]').textContent()).toMatch(/^Open · Closes in/);
    await card.screenshot({ path: screenshotPath('current-2-next-open.png') });

    // Eleven days on: the café's closed, the stadium's is open.
    switched = await nextSwitch(tab);
    await setTime(tab, seededAt + 11 * day + hour);
    expect(await switched()).toEqual(
      expect.objectContaining({ pollId: ids.stadium, previousPollId: ids.cafe }),
    );
    await expect.poll(() => question.textContent()).toContain(sandboxPoll(ids.stadium).question);
    await card.screenshot({ path: screenshotPath('current-3-stadium-open.png') });

    // Announced politely; one page load throughout; nothing on the page moved more than the budget.
    const announced = await card.evaluate((element) =>
      [...(element.shadowRoot?.querySelectorAll('[role="status"][aria-live="polite"]') ?? [])]
        .map((region) => region.textContent)
        .join(' '),
    );
    expect(announced).toContain(sandboxPoll(ids.stadium).question);
    const { layoutShift, pageLoads } = await tab.evaluate(() => {
      const shifts = window as { layoutShift?: number; pageLoads?: number };
      return { layoutShift: shifts.layoutShift, pageLoads: shifts.pageLoads };
    });
    expect(pageLoads).toBe(1);
    console.info(`layout shift over the visit: ${layoutShift}`);
    expect(layoutShift).toBeLessThan(0.02);
    await context.close();
  });

  it('does the same in the iframe banner, whose element re-dispatches the switch', async () => {
    await setTime(undefined, seededAt);
    const context = await browser.newContext({ viewport: { width: 390, height: 900 } });
    const tab = await context.newPage();
    await tab.clock.setFixedTime(seededAt);
    await tab.goto(`${page.url}/banner`);
    const frame = tab.frameLocator('fan-poll-frame iframe');
    const question = frame.locator('fan-poll [part="question"]');
    const sandboxPoll = (id: string) => stack.sandbox.sandbox.state.polls.find(id)!;
    await expect.poll(() => question.textContent()).toContain(sandboxPoll(ids.walkout).question);
    await tab.evaluate(() => {
      const holder = window as { nextSwitch?: Promise<unknown> };
      holder.nextSwitch = new Promise((resolve) => {
        document.querySelector('fan-poll-frame')!.addEventListener(
          'fan-poll-current-changed',
          (event) => {
            resolve((event as CustomEvent).detail);
          },
          { once: true },
        );
      });
    });
    await setTime(tab, seededAt + 97 * hour);
    expect(
      await tab.evaluate(() => (window as { nextSwitch?: Promise<{ pollId: string }> }).nextSwitch!),
    ).toEqual(expect.objectContaining({ pollId: ids.cafe, previousPollId: ids.walkout }));
    await expect.poll(() => question.textContent()).toContain(sandboxPoll(ids.cafe).question);
    await tab.locator('fan-poll-frame').screenshot({ path: screenshotPath('current-4-banner-switched.png') });
    await context.close();
  });
});
