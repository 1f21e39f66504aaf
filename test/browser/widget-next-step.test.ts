// The partner's links on a card in Chromium, with the one-line script tag on a page of another site: a disclosed
// card links the poll's `blockchainAddress` (as the platform sent it) through `verify-href`, and the next step through
// `next-href` with the card's tracking parameters; following one fires `fan-poll-next`. A `javascript:` next step and
// a `data:` template are never rendered. A fan copies the poll's share link from the card, and it opens the poll's
// share page. Screenshots: dist/screenshots/next-step-disclosed.png, next-step-share-copied.png.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeServer, listenOnLoopback } from '../../src/node/loopback-server.ts';
import type { Poll } from '../../src/platform/types.ts';
import { seededPollId } from '../../src/sandbox/data/seed-polls.ts';
import { widgetVersion } from '../../widget/base/widget-version.ts';
import type { PageServer } from '../support/page-server.ts';
import { screenshotPath } from '../support/screenshots.ts';
import type { SandboxAndProxy } from '../support/stack.ts';
import { ensureWidgetBuilt, launchChromium, startStackAllowing } from './widget-stack.ts';

const disclosedId = seededPollId('riverside-armband-design');
let browser: Browser;
let stack: SandboxAndProxy;
let page: PageServer;
let proxyUrl = '';

/** The card with the links given in the page's query (`?next=…&verify=…`), set before the element code runs. */
function partnerPage(): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Season review</title>
<script type="module" src="${proxyUrl}/widget/v${widgetVersion}/fan-polls.js" data-proxy="${proxyUrl}"></script></head>
<body><h1>Season review</h1><fan-poll poll-id="${disclosedId}" referrer="club-site" campaign="review" eager></fan-poll>
<script>
  const query = new URLSearchParams(location.search);
  const card = document.querySelector('fan-poll');
  card.setAttribute('next-href', query.get('next'));
  card.setAttribute('verify-href', query.get('verify'));
  addEventListener('fan-poll-next', (event) => { window.heard?.(event.detail); });
</script></body></html>`;
}

beforeAll(async () => {
  ensureWidgetBuilt();
  const served = await listenOnLoopback(
    () => new Response(partnerPage(), { headers: { 'Content-Type': 'text/html; charset=utf-8' } }),
    0,
    'localhost',
  );
  page = { url: served.url, close: () => closeServer(served.server) };
  stack = await startStackAllowing(page.url, { simulate: false });
  proxyUrl = stack.proxy.url;
  browser = await launchChromium();
});

afterAll(async () => {
  await browser.close();
  await stack.close();
  await page.close();
});

describe('the partner’s links on a disclosed card', () => {
  it('links the result’s record and the next step, and tells the page which was followed', async () => {
    const poll = ((await (await fetch(`${proxyUrl}/api/polls/${disclosedId}`)).json()) as { data: Poll })
      .data;
    expect(poll.blockchainAddress).toBeTruthy();
    const context = await browser.newContext({ viewport: { width: 390, height: 900 } });
    const tab = await context.newPage();
    const next = 'https://www.club.example/season-review?part=2';
    const verify = 'https://explorer.example/address/{address}';
    await tab.goto(`${page.url}/?${new URLSearchParams({ next, verify }).toString()}`);
    const card = tab.locator('fan-poll');
    const links = card.locator('[part="next"] a');
    await links.first().waitFor();
    const rendered = await links.evaluateAll((anchors) =>
      anchors.map((a) => ({ text: a.textContent.trim(), href: a.getAttribute('href') })),
    );
    expect(rendered).toEqual([
      {
        text: 'What’s next',
        href: 'https://www.club.example/season-review?part=2&referrer=club-site&campaign=review',
      },
      {
        text: 'Check this result',
        href: `https://explorer.example/address/${encodeURIComponent(poll.blockchainAddress!)}`,
      },
    ]);
    await card.screenshot({ path: screenshotPath('next-step-disclosed.png') });

    // The next step goes on in this tab; the page hears of it first (a binding outlives the navigation).
    const heard: unknown[] = [];
    await tab.exposeFunction('heard', (detail: unknown) => heard.push(detail));
    await context.route('https://www.club.example/**', (route) =>
      route.fulfill({ body: '<title>Season review, part 2</title>', contentType: 'text/html' }),
    );
    await links.first().click();
    await tab.waitForURL(/season-review\?part=2/);
    expect(heard).toEqual([
      {
        pollId: disclosedId,
        tracking: { referrer: 'club-site', campaign: 'review' },
        link: 'next',
        href: rendered[0]!.href,
      },
    ]);
    await context.close();
  });

  it('never renders a javascript: next step or a data: template', async () => {
    const context = await browser.newContext();
    const tab = await context.newPage();
    const warnings: string[] = [];
    tab.on('console', (message) => {
      if (message.type() === 'warning') warnings.push(message.text());
    });
    const query = new URLSearchParams({
      next: 'javascript:alert(document.domain)',
      verify: 'data:text/html,{address}',
    });
    await tab.goto(`${page.url}/?${query.toString()}`);
    const card = tab.locator('fan-poll');
    await card.locator('[part="question"]').waitFor();
    await expect.poll(() => warnings.filter((text) => text.includes('is ignored')).length).toBe(2);
    expect(await card.locator('[part="next"] a').count()).toBe(0);
    expect(await card.evaluate((element) => element.shadowRoot!.innerHTML)).not.toMatch(
      /javascript:|data:text/,
    );
    await context.close();
  });

  it('copies the poll’s share link for a fan to share, and the link opens the poll’s share page', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: page.url });
    const tab = await context.newPage();
    // No share sheet on this desktop build: the card copies the link (a phone's browser opens its sheet instead).
    await tab.addInitScript(() => {
      Object.defineProperty(navigator, 'share', { value: undefined });
    });
    const next = 'https://www.club.example/season-review';
    await tab.goto(`${page.url}/?${new URLSearchParams({ next, verify: '' }).toString()}`);
    const card = tab.locator('fan-poll');
    await card.locator('[part="share"]').click();
    await expect.poll(() => card.locator('[part="next"] [role="status"]').textContent()).toBe('Link copied');
    const link = await tab.evaluate(() => navigator.clipboard.readText());
    expect(link).toBe(`${proxyUrl}/share/polls/${disclosedId}?referrer=club-site&campaign=review`);
    const sharePage = await fetch(link);
    expect(sharePage.status).toBe(200);
    const poll = ((await (await fetch(`${proxyUrl}/api/polls/${disclosedId}`)).json()) as { data: Poll })
      .data;
    expect(await sharePage.text()).toContain(`<meta property="og:title" content="${poll.question}`);
    await card.screenshot({ path: screenshotPath('next-step-share-copied.png') });
    await context.close();
  });
});
