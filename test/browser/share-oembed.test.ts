// A share link turned into the banner by a consumer of oEmbed (WordPress, a CMS): the proxy's oEmbed `html` pasted as
// it is into a plain page of another site shows the poll's banner, its card drawn with the poll's question and answers.
// The share page itself, without a share target, shows the same banner. Screenshots in dist/screenshots/.
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharePagePath } from '../../src/contracts/share-contract.ts';
import type { Poll } from '../../src/platform/types.ts';
import { openRiversidePollFromProxy } from '../support/open-poll.ts';
import { servePage } from '../support/page-server.ts';
import { screenshotPath } from '../support/screenshots.ts';
import { startSandboxAndProxy, type SandboxAndProxy } from '../support/stack.ts';
import { ensureWidgetBuilt, launchChromium } from './widget-stack.ts';

let browser: Browser;
let stack: SandboxAndProxy;
let poll: Poll;

beforeAll(async () => {
  ensureWidgetBuilt();
  // The sandbox preset: any loopback page may frame the banner, as a blog listed in FAN_POLLS_ALLOWED_ORIGINS may.
  stack = await startSandboxAndProxy({ sandbox: { simulate: false } });
  poll = await openRiversidePollFromProxy(stack.proxy.url, 30 * 60_000);
  browser = await launchChromium();
});

afterAll(async () => {
  await browser.close();
  await stack.close();
});

async function bannerIn(page: Page): Promise<Frame> {
  const iframe = page.locator('iframe');
  await iframe.waitFor();
  const frame = await (await iframe.elementHandle()).contentFrame();
  if (!frame) throw new Error('No banner frame.');
  await frame.waitForURL((url) => url.pathname.endsWith('/widget/embed/poll.html'));
  return frame;
}

async function expectPollShown(frame: Frame): Promise<void> {
  const question = frame.locator('fan-poll [part="question"]');
  await question.waitFor();
  expect((await question.textContent())?.trim()).toBe(poll.question.trim());
  for (const answer of poll.answers) await frame.getByText(answer.answer, { exact: true }).first().waitFor();
}

describe('a share link as oEmbed (Chromium)', () => {
  it('shows the poll’s banner in a plain page of another site from the oEmbed html', async () => {
    const link = `${stack.proxy.url}${sharePagePath(poll.id)}?referrer=blog`;
    const oembed = await fetch(`${stack.proxy.url}/oembed?url=${encodeURIComponent(link)}&format=json`);
    expect(oembed.status).toBe(200);
    const { html } = (await oembed.json()) as { html: string };
    // A blog post of another site (localhost against the proxy's 127.0.0.1) with the oEmbed html pasted as it is.
    const blog = await servePage(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A blog post</title></head>
<body><h1>Derby preview</h1><p>What do the fans think?</p>${html}</body></html>`,
      'localhost',
    );
    const context = await browser.newContext({ viewport: { width: 800, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${blog.url}/`);
    const frame = await bannerIn(page);
    expect(frame.url()).toContain(`/widget/embed/poll.html?poll=${poll.id}&referrer=blog`);
    await expectPollShown(frame);
    await page.screenshot({ path: screenshotPath('share-oembed.png') });
    await context.close();
    await blog.close();
  });

  it('shows the same banner on the share page when the proxy has no share target', async () => {
    const context = await browser.newContext({ viewport: { width: 800, height: 900 } });
    const page = await context.newPage();
    const answer = await page.goto(`${stack.proxy.url}${sharePagePath(poll.id)}?campaign=derby`);
    expect(answer?.status()).toBe(200);
    expect(await page.title()).toBe(poll.question);
    await expectPollShown(await bannerIn(page));
    await page.screenshot({ path: screenshotPath('share-page.png') });
    await context.close();
  });
});
