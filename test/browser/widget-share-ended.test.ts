// Sharing a poll that ended, in Chromium, by a visitor who never voted: a disclosed poll's card (the one-line script
// tag, no partner links) and its banner (`<fan-poll-frame>`) on a page of another site each offer "Share" once their
// details chunk arrives after the first paint. No share sheet here: each copies the poll's share link with the
// tracking values, says so, and fires `fan-poll-share`; the copied link opens the poll's share page.
// Screenshots: dist/screenshots/share-ended-card.png, share-ended-banner.png.
import type { Browser, BrowserContext, Frame, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeServer, listenOnLoopback } from '../../src/node/loopback-server.ts';
import type { Poll } from '../../src/platform/types.ts';
import { seededPollId } from '../../src/sandbox/data/seed-polls.ts';
import { widgetVersion } from '../../widget/base/widget-version.ts';
import { enPhases } from '../../widget/i18n/en-phases.ts';
import type { PageServer } from '../support/page-server.ts';
import { screenshotPath } from '../support/screenshots.ts';
import type { SandboxAndProxy } from '../support/stack.ts';
import { ensureWidgetBuilt, launchChromium, startStackAllowing } from './widget-stack.ts';

const disclosedId = seededPollId('riverside-armband-design');
let browser: Browser;
let stack: SandboxAndProxy;
let page: PageServer;
let proxyUrl = '';
let poll: Poll;

/** The partner's page: the card (`?embed=card`) or the banner (`?embed=banner`), each with its tracking values. */
function partnerPage(embed: string | null): string {
  const widget = `${proxyUrl}/widget/v${widgetVersion}`;
  const body =
    embed === 'banner'
      ? `<script type="module" src="${widget}/fan-polls-frame.js"></script>
<fan-poll-frame poll-id="${disclosedId}" referrer="club-site" campaign="banner"></fan-poll-frame>`
      : `<script type="module" src="${widget}/fan-polls.js" data-proxy="${proxyUrl}"></script>
<fan-poll poll-id="${disclosedId}" referrer="club-site" campaign="review" eager></fan-poll>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Season review</title></head>
<body><h1>Season review</h1>${body}
<script>addEventListener('fan-poll-share', (event) => { window.shared?.(event.detail); });</script></body></html>`;
}

beforeAll(async () => {
  ensureWidgetBuilt();
  const served = await listenOnLoopback(
    (request) =>
      new Response(partnerPage(new URL(request.url).searchParams.get('embed')), {
        headers: { 'Content-Type': 'text/html; charset=utf-8' },
      }),
    0,
    'localhost',
  );
  page = { url: served.url, close: () => closeServer(served.server) };
  stack = await startStackAllowing(page.url, { simulate: false });
  proxyUrl = stack.proxy.url;
  poll = ((await (await fetch(`${proxyUrl}/api/polls/${disclosedId}`)).json()) as { data: Poll }).data;
  browser = await launchChromium();
});

afterAll(async () => {
  await browser.close();
  await stack.close();
  await page.close();
});

/** A visitor's tab that may write and read the clipboard, with no share sheet (a desktop browser). */
async function visitorTab(): Promise<{ context: BrowserContext; tab: Page; shared: unknown[] }> {
  const context = await browser.newContext({ viewport: { width: 420, height: 900 } });
  for (const origin of [page.url, proxyUrl])
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
  await context.addInitScript(() => {
    Object.defineProperty(navigator, 'share', { value: undefined });
  });
  const tab = await context.newPage();
  const shared: unknown[] = [];
  await tab.exposeFunction('shared', (detail: unknown) => shared.push(detail));
  return { context, tab, shared };
}

/**
 * Taps the card's Share once the card is live (a drawn card's Share says it is getting ready until then), waits for
 * its confirmation, and gives back the link the clipboard holds.
 */
async function shareFrom(card: Locator, tab: Page): Promise<string> {
  await card.locator('[part="share"]:not([aria-disabled="true"])').click();
  await card.locator('[part="next"] [role="status"]', { hasText: 'Link copied' }).waitFor();
  return tab.evaluate(() => navigator.clipboard.readText());
}

/** The link opens the poll's share page: its Open Graph title is the question. */
async function expectSharePage(link: string): Promise<void> {
  const sharePage = await fetch(link);
  expect(sharePage.status).toBe(200);
  expect(await sharePage.text()).toContain(`<meta property="og:title" content="${poll.question}`);
}

async function bannerFrame(tab: Page): Promise<Frame> {
  const iframe = tab.locator('fan-poll-frame iframe');
  await iframe.waitFor();
  const frame = await (await iframe.elementHandle()).contentFrame();
  if (!frame) throw new Error('The banner has no frame.');
  return frame;
}

describe('sharing a disclosed poll without a vote (Chromium)', () => {
  it('copies the share link from the card, which opens the poll’s share page', async () => {
    const { context, tab, shared } = await visitorTab();
    await tab.goto(`${page.url}/?embed=card`);
    const card = tab.locator('fan-poll:defined');
    await card.locator('[part="question"]').waitFor();
    // The visitor never voted: the card says voting is closed, and shares all the same.
    expect(await card.locator('[part="actions"]').textContent()).toContain(enPhases.votingClosed);
    const link = await shareFrom(card, tab);
    expect(link).toBe(`${proxyUrl}/share/polls/${disclosedId}?referrer=club-site&campaign=review`);
    await expectSharePage(link);
    expect(shared).toEqual([
      {
        pollId: disclosedId,
        tracking: { referrer: 'club-site', campaign: 'review' },
        url: link,
        via: 'clipboard',
      },
    ]);
    await card.screenshot({ path: screenshotPath('share-ended-card.png') });
    await context.close();
  });

  it('copies the share link from the banner on another site, and the page hears of it', async () => {
    const { context, tab, shared } = await visitorTab();
    await tab.goto(`${page.url}/?embed=banner`);
    const frame = await bannerFrame(tab);
    const card = frame.locator('fan-poll:defined');
    await card.locator('[part="question"]').waitFor();
    const link = await shareFrom(card, tab);
    expect(link).toBe(`${proxyUrl}/share/polls/${disclosedId}?referrer=club-site&campaign=banner`);
    await expectSharePage(link);
    // The banner's card event, dispatched again on `<fan-poll-frame>` in the partner's page.
    await expect
      .poll(() => shared)
      .toEqual([
        {
          pollId: disclosedId,
          tracking: { referrer: 'club-site', campaign: 'banner' },
          url: link,
          via: 'clipboard',
        },
      ]);
    await tab.locator('fan-poll-frame').screenshot({ path: screenshotPath('share-ended-banner.png') });
    await context.close();
  });
});
