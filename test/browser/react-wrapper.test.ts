// The npm package's React components in a React 19 app (bundled by Vite from `dist/package/`), on a page of another
// site than the proxy: the card and a list (its filters from React props) render and a fan signs in and votes through it; React's event props receive every
// event with its detail and the tracking props; the platform records exactly the fan's answer. The banner
// (`FanPollFrame`) loads its element from the proxy's versioned URL and its events reach React too.
import { readFile, rm } from 'node:fs/promises';
import { extname, join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeServer, listenOnLoopback } from '../../src/node/loopback-server.ts';
import type { Poll } from '../../src/platform/types.ts';
import { openRiversidePollFromProxy } from '../support/open-poll.ts';
import { recordedAnswerIds } from '../support/recorded-vote.ts';
import { screenshotPath } from '../support/screenshots.ts';
import type { SandboxAndProxy } from '../support/stack.ts';
import { ensurePackageBuilt } from '../support/vite-build.ts';
import { buildReactApp } from './react-app/build-react-app.ts';
import type { SeenEvent } from './react-app/main.ts';
import { answerTextOf, fanPages, recordFanPosts } from './widget-fan-page.ts';
import { launchChromium, onAnotherSite, startStackAllowing } from './widget-stack.ts';

let browser: Browser;
let stack: SandboxAndProxy;
let appDir = '';
let app: { url: string; close: () => Promise<void> };
let poll: Poll;

beforeAll(async () => {
  ensurePackageBuilt();
  appDir = await buildReactApp();
  const server = await listenOnLoopback(async (request) => {
    const path = new URL(request.url).pathname;
    const file = path === '/' ? 'index.html' : path.slice(1);
    if (file.includes('..')) return new Response(null, { status: 404 });
    const body = await readFile(join(appDir, file)).catch(() => undefined);
    if (!body) return new Response(null, { status: 404 });
    const type = extname(file) === '.html' ? 'text/html' : 'text/javascript';
    return new Response(body, { headers: { 'Content-Type': `${type}; charset=utf-8` } });
  }, 0);
  // Another site than the proxy (http://127.0.0.1:<port>): Chromium resolves localhost to loopback itself.
  app = { url: onAnotherSite(server.url), close: () => closeServer(server.server) };
  stack = await startStackAllowing(app.url, { simulate: false });
  poll = await openRiversidePollFromProxy(stack.proxy.url);
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser.close();
  await stack.close();
  await app.close();
  await rm(appDir, { recursive: true, force: true });
});

// The popup helpers need no demo page.
const { openSignIn, signInAs } = fanPages(() => {
  throw new Error('This test has no demo page.');
});

async function seenEvents(page: Page): Promise<SeenEvent[]> {
  const lines = await page.locator('#events li').allTextContents();
  return lines.map((line) => JSON.parse(line) as SeenEvent);
}

describe('fan-polls/react in a React 19 app (Chromium)', () => {
  it('renders the card and the banner, votes through the card, and hands React every event', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
    const page = await context.newPage();
    const thrown: string[] = [];
    page.on('pageerror', (error) => thrown.push(error.message));
    const posts = recordFanPosts(page);
    await page.goto(
      `${app.url}/?proxy=${encodeURIComponent(stack.proxy.url)}&poll=${poll.id}&partner=${poll.partnerId}`,
    );
    const card = page.locator('main > fan-poll');
    await card.locator('[part="question"]').waitFor();
    // The banner's element came from the proxy, pinned to the package's version, and its card is framed.
    await page.frameLocator('fan-poll-frame iframe').locator('fan-poll [part="question"]').waitFor();
    await expect
      .poll(async () => (await seenEvents(page)).map((event) => `${event.source} ${event.type}`).sort())
      .toEqual(['banner fan-poll-ready', 'card fan-poll-ready']);
    const frameSource = await page.locator('fan-poll-frame iframe').getAttribute('src');
    expect(frameSource).toMatch(
      new RegExp(`^${stack.proxy.url}/widget/v\\d+\\.\\d+\\.\\d+/embed/poll\\.html\\?`),
    );
    // Attributes written from React props: the tracking parameters the card reads, the list's filters.
    expect(await card.getAttribute('campaign')).toBe('wrapper');
    const listed = page.locator('fan-poll-list fan-poll');
    await listed.first().locator('[part="question"]').waitFor();
    expect(await page.locator('fan-poll-list').getAttribute('partner-ids')).toBe(poll.partnerId);
    expect(await listed.count()).toBeLessThanOrEqual(2);
    expect(await listed.first().getAttribute('campaign')).toBe('list');

    await card.locator('[part~="answer"]').first().waitFor();
    await card.getByRole('button', { name: 'Sign in to vote' }).waitFor();
    const answer = card.locator('[part~="answer"]').nth(1);
    const answerText = await answerTextOf(answer);
    const answerId = await answer.locator('input').evaluate((input) => (input as HTMLInputElement).value);
    await answer.locator('input').check();
    await signInAs(await openSignIn({ context, page, card, ...posts }), 'sam');
    await card.getByRole('button', { name: 'Vote', exact: true }).click();
    await card
      .locator('[part="actions"]')
      .getByText(`You voted for ${answerText}`)
      .waitFor({ timeout: 15_000 });
    await page.screenshot({ path: screenshotPath('react-wrapper-voted.png'), fullPage: true });

    const tracking = { referrer: 'react-app', campaign: 'wrapper' };
    await expect
      .poll(async () => (await seenEvents(page)).map((event) => event.type))
      .toContain('fan-poll-voted');
    const cardEvents = (await seenEvents(page)).filter((event) => event.source === 'card');
    expect(cardEvents.map((event) => event.type)).toEqual([
      'fan-poll-ready',
      'fan-poll-sign-in',
      'fan-poll-sign-in',
      'fan-poll-vote',
      'fan-poll-voted',
    ]);
    expect(cardEvents[0]?.detail).toEqual({ pollId: poll.id, tracking, phase: 'open' });
    expect(cardEvents[2]?.detail).toEqual({ pollId: poll.id, tracking, stage: 'signed-in', via: 'popup' });
    expect(cardEvents[3]?.detail).toEqual({ pollId: poll.id, tracking, answerId });
    expect(cardEvents[4]?.detail).toMatchObject({ pollId: poll.id, tracking, answerId });
    expect(posts.votePosts).toHaveLength(1);

    // What the platform recorded: exactly the fan's answer.
    expect(await recordedAnswerIds(stack.sandbox.sandbox, poll.id, 'sam')).toEqual([answerId]);
    expect(thrown).toEqual([]);
    await context.close();
  });
});
