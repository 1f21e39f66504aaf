// A page whose origin the proxy does not allow: the card and the banner each fire `fan-poll-error` with the code
// `origin-not-allowed` and a message naming FAN_POLLS_ALLOWED_ORIGINS (also in the console), and the banner leaves
// no broken frame behind.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { widgetVersion } from '../../widget/base/widget-version.ts';
import { openRiversidePollFromProxy } from '../support/open-poll.ts';
import { servePage, type PageServer } from '../support/page-server.ts';
import type { SandboxAndProxy } from '../support/stack.ts';
import { ensureWidgetBuilt, launchChromium, startStackAllowing } from './widget-stack.ts';

let browser: Browser;
let stack: SandboxAndProxy;
let page: PageServer;

beforeAll(async () => {
  ensureWidgetBuilt();
  // The proxy allows another site only, and not this machine's pages (the sandbox's default does).
  stack = await startStackAllowing('https://www.club.example', {
    simulate: false,
    env: { FAN_POLLS_ALLOW_LOOPBACK_ORIGINS: 'false' },
  });
  const proxy = stack.proxy.url;
  const poll = await openRiversidePollFromProxy(proxy);
  page =
    await servePage(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Not allowed</title>
<script>window.seen = []; document.addEventListener('fan-poll-error', (event) =>
  window.seen.push({ tag: event.target.localName, code: event.detail.code, message: event.detail.message }));</script>
<script type="module" src="${proxy}/widget/v${widgetVersion}/fan-polls.js" data-proxy="${proxy}"></script>
<script type="module" src="${proxy}/widget/v${widgetVersion}/fan-polls-frame.js"></script></head>
<body><fan-poll poll-id="${poll.id}"></fan-poll><fan-poll-frame poll-id="${poll.id}"></fan-poll-frame></body></html>`);
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser.close();
  await stack.close();
  await page.close();
});

describe('a page on an origin the proxy does not allow', () => {
  it('gets a coded error naming FAN_POLLS_ALLOWED_ORIGINS from the card and the banner', async () => {
    const tab = await browser.newPage();
    const consoleErrors: string[] = [];
    tab.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    await tab.goto(page.url);
    type Seen = { tag: string; code: string; message: string };
    const refused = async (): Promise<Seen[]> =>
      (await tab.evaluate(() => (window as unknown as { seen: Seen[] }).seen)).filter(
        (event) => event.code === 'origin-not-allowed',
      );
    await expect
      .poll(async () => (await refused()).map((event) => event.tag).sort(), { timeout: 20_000 })
      .toEqual(['fan-poll', 'fan-poll-frame']);
    for (const event of await refused()) {
      expect(event.message).toContain('FAN_POLLS_ALLOWED_ORIGINS');
      expect(event.message).toContain(page.url);
    }
    expect(consoleErrors.some((text) => text.includes('FAN_POLLS_ALLOWED_ORIGINS'))).toBe(true);
    // No broken frame: the banner took its iframe away.
    expect(await tab.locator('fan-poll-frame iframe').count()).toBe(0);
    await tab.close();
  });
});
