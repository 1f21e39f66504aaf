// A `<fan-poll current partner-ids>` card on a partner page of another site, with the one-line script tag: it shows
// the club's open poll, and switches by itself, without a reload, when the sandbox's clock closes it and opens the
// next, then again. The page's clock and the proxy's follow the sandbox's. The layout shift of the whole visit stays
// below 0.02 (the page reserves the card's height), each switch is announced in a polite live region and fires
// `fan-poll-current-changed`. With the recommended snippet in a language of its own, the card paints from the proxy's
// drawing before any element code, hydrates without being drawn again, and switches as the other does.
// Screenshots: dist/screenshots/current-<n>-<state>.png.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeServer, listenOnLoopback } from '../../src/node/loopback-server.ts';
import type { Poll } from '../../src/platform/types.ts';
import { SandboxClock } from '../../src/sandbox/clock.ts';
import { seededPollId } from '../../src/sandbox/data/seed-polls.ts';
import { phaseAt } from '../../src/sandbox/data/poll-tally.ts';
import { drawnCardPath } from '../../src/contracts/drawn-card-contract.ts';
import { widgetVersion } from '../../widget/base/widget-version.ts';
import { embedSnippet } from '../../widget/configurator/embed-snippet.ts';
import { drawnCardMark } from '../../widget/delivery/drawn-cards.ts';
import { freePort } from '../support/free-port.ts';
import type { PageServer } from '../support/page-server.ts';
import { screenshotPath } from '../support/screenshots.ts';
import { startSandboxAndProxy, type SandboxAndProxy } from '../support/stack.ts';
import { nextBannerSwitch } from './banner-switch.ts';
import { watchLayoutShift } from './layout-shift.ts';
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
 * A match report with the card in it (`/`), the card as the configurator's recommended snippet writes it in English
 * (`/drawn`: preloads in the head, the element where the card goes), or the banner (`/banner`), its height reserved,
 * and text under it that a growing card would push.
 */
function partnerPage(proxyUrl: string, path: string): string {
  const widget = `${proxyUrl}/widget/v${widgetVersion}`;
  let embed =
    path === '/banner'
      ? `<script type="module" src="${widget}/fan-polls-frame.js"></script>`
      : `<script type="module" src="${widget}/fan-polls.js" data-proxy="${proxyUrl}"></script>`;
  let element =
    path === '/banner'
      ? `<fan-poll-frame current partner-ids="${northgate}"></fan-poll-frame>`
      : `<fan-poll current partner-ids="${northgate}" eager></fan-poll>`;
  if (path === '/drawn') {
    const { html } = embedSnippet({
      embed: 'card',
      proxyUrl,
      version: widgetVersion,
      pollId: '',
      partnerId: northgate,
      current: true,
      theme: 'light',
      results: 'always',
      lang: 'en',
      minHeight: 700,
      maxWidth: 0,
      tracking: {},
    });
    const at = html.indexOf('<fan-poll');
    [embed, element] = [html.slice(0, at), html.slice(at)];
  }
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

/**
 * What the card is once its question is on screen, while its element code is held back: its first paint. The question's
 * text node is kept in the page (`window.firstPaint`), to be found again after hydration.
 */
interface FirstPaint {
  question: string;
  elementDefined: boolean;
  /** The page's reads of polls and of the current poll that had started by then. */
  readsBefore: string[];
  /** The entry's performance marks of drawn cards (`drawnCardMark`). */
  marks: number;
}

function readFirstPaint(mark: string): FirstPaint {
  const question = document.querySelector('fan-poll')!.shadowRoot!.querySelector('[part="question"]')!;
  (window as { firstPaint?: Node }).firstPaint = question.firstChild ?? question;
  return {
    question: question.textContent.trim(),
    elementDefined: customElements.get('fan-poll') !== undefined,
    readsBefore: performance
      .getEntriesByType('resource')
      .map((entry) => entry.name)
      .filter((name) => /\/api\/polls(\?|\/current\?)/.test(name)),
    marks: performance.getEntriesByName(mark, 'mark').length,
  };
}

describe('a current card', () => {
  it('shows the club’s open poll, then switches by itself as polls close and open, without a reload', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 900 } });
    const tab = await context.newPage();
    await tab.clock.setFixedTime(seededAt);
    await tab.addInitScript(watchLayoutShift);
    await tab.addInitScript(() => {
      const loads = window as { pageLoads?: number };
      loads.pageLoads = (Number(sessionStorage.getItem('loads')) || 0) + 1;
      sessionStorage.setItem('loads', String(loads.pageLoads));
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
    const switched = await nextBannerSwitch(tab);
    await setTime(tab, seededAt + 97 * hour);
    expect(await switched()).toEqual(
      expect.objectContaining({ pollId: ids.cafe, previousPollId: ids.walkout }),
    );
    await expect.poll(() => question.textContent()).toContain(sandboxPoll(ids.cafe).question);
    await tab.locator('fan-poll-frame').screenshot({ path: screenshotPath('current-4-banner-switched.png') });
    await context.close();
  });
  it('paints from the proxy’s drawing with the recommended snippet, hydrates it as drawn, then switches', async () => {
    await setTime(undefined, seededAt);
    const context = await browser.newContext({ viewport: { width: 390, height: 900 } });
    const tab = await context.newPage();
    // The page keeps its own clock until the switch (a few seconds after the sandbox's frozen one): a faked clock
    // fakes the page's performance timeline too, where the entry leaves its mark.
    await tab.addInitScript(watchLayoutShift);
    const errors: string[] = [];
    tab.on('pageerror', (error) => errors.push(error.message));
    const warnings: string[] = [];
    tab.on('console', (message) => {
      if (message.type() === 'warning' || message.type() === 'error') warnings.push(message.text());
    });
    const requested: string[] = [];
    tab.on('request', (request) => requested.push(request.url()));
    // What started each request (DevTools' initiator): the drawing must be the page's own preload.
    const initiators = new Map<string, string>();
    const cdp = await context.newCDPSession(tab);
    cdp.on('Network.requestWillBeSent', ({ request, initiator }) =>
      initiators.set(request.url, initiator.type),
    );
    await cdp.send('Network.enable');
    // The element code held back until the drawn card is on screen: on a phone's network it arrives well after it.
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    await tab.route(/fan-polls-hydrate\.js$/, (route) => released.then(() => route.continue()));
    const sandboxPoll = (id: string) => stack.sandbox.sandbox.state.polls.find(id)!;
    await tab.goto(`${page.url}/drawn`);
    const card = tab.locator('fan-poll');
    const question = card.locator('[part="question"]');
    await question.waitFor();

    // On screen from the proxy's drawing of the club's current poll, before any element code or poll read.
    const drawnUrl = `${stack.proxy.url}${drawnCardPath(null, { partnerIds: northgate, lang: 'en' })}`;
    const firstPaint = await tab.evaluate(readFirstPaint, drawnCardMark);
    expect(firstPaint.question).toBe(sandboxPoll(ids.walkout).question);
    expect(firstPaint.elementDefined).toBe(false);
    expect(firstPaint.marks).toBe(1);
    expect(firstPaint.readsBefore).toEqual([]);
    expect(requested.filter((url) => url.includes('/card'))).toEqual([drawnUrl]);
    expect(initiators.get(drawnUrl)).toBe('parser');
    await tab.screenshot({ path: screenshotPath('current-5-drawn-first-paint.png') });

    // Hydrated: the same text nodes (never drawn again), live, and following the club's current poll.
    const asked = tab.waitForResponse((response) => response.url().includes('/api/polls/current?'));
    release();
    await tab.waitForFunction(() => {
      const element = document.querySelector('fan-poll') as (HTMLElement & { hasUpdated?: boolean }) | null;
      return element?.matches(':defined') && element.hasUpdated;
    });
    await asked;
    expect(
      // After the follower heard that the drawn poll is the current one, and the card's update that followed.
      await tab.evaluate(async () => {
        const element = document.querySelector('fan-poll')!;
        await element.updateComplete;
        return element.shadowRoot!.contains((window as { firstPaint?: Node }).firstPaint!);
      }),
    ).toBe(true);
    await card.locator('[part="button"]:not([aria-disabled="true"])').waitFor();
    expect(await card.locator('[part="phase"]').textContent()).toMatch(/^Open · Closes in/);
    await card.screenshot({ path: screenshotPath('current-6-drawn-hydrated.png') });

    // Four days on: the song's poll closed, the café's opened. The hydrated card follows without a reload.
    const switched = await nextSwitch(tab);
    await setTime(tab, seededAt + 97 * hour);
    expect(await switched()).toEqual(
      expect.objectContaining({ pollId: ids.cafe, previousPollId: ids.walkout }),
    );
    await expect.poll(() => question.textContent()).toContain(sandboxPoll(ids.cafe).question);
    await card.screenshot({ path: screenshotPath('current-7-drawn-switched.png') });

    const layoutShift = await tab.evaluate(() => (window as { layoutShift?: number }).layoutShift);
    console.info(`layout shift, drawn current card, first paint to switch: ${layoutShift}`);
    expect(layoutShift).toBeLessThan(0.02);
    expect(warnings.filter((text) => /preload|security policy|hydrat|Fan Polls/i.test(text))).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
