// The club's analytics end to end in Chromium: a partner page with a card in view, a banner in view and a card far
// below the fold reports the cards it showed; a fan signs in and votes with the page's campaign; then the club opens
// the proxy's dashboard, enters its token once, and finds those numbers in the funnel, and downloads the CSV.
import { analyticsPaths } from '../../src/contracts/analytics-contract.ts';
import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csrfHeaderName, csrfHeaderValue, proxyRoutes } from '../../src/contracts/proxy-contract.ts';
import { callAt, signIn } from '../integration/proxy-harness.ts';
import { openRiversidePollFromProxy } from '../support/open-poll.ts';
import type { PageServer } from '../support/page-server.ts';
import { screenshotPath } from '../support/screenshots.ts';
import type { SandboxAndProxy } from '../support/stack.ts';
import { waitUntil } from '../support/wait-until.ts';
import { analyticsReport, analyticsToken as token, startAnalyticsStack, today } from './analytics-stack.ts';
import { servePartnerPage } from './partner-page.ts';
import { ensureWidgetBuilt, launchChromium } from './widget-stack.ts';

let browser: Browser;
let stack: SandboxAndProxy;
let page: PageServer;
let pollId: string;
let question: string;

beforeAll(async () => {
  ensureWidgetBuilt();
  stack = await startAnalyticsStack();
  const poll = await openRiversidePollFromProxy(stack.proxy.url);
  pollId = poll.id;
  question = poll.question;
  page = await servePartnerPage(
    stack.proxy.url,
    `<fan-poll poll-id="${poll.id}" campaign="spring" referrer="club-site" eager></fan-poll>
<fan-poll-frame poll-id="${poll.id}" campaign="banner"></fan-poll-frame>
<div style="height: 4000px"></div>
<fan-poll poll-id="${poll.id}" campaign="below-the-fold" eager></fan-poll>`,
    { banner: true },
  );
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser.close();
  await stack.close();
  await page.close();
});

const report = (query: string) => analyticsReport(stack.proxy.url, query);

const shownFor = async (campaign: string) =>
  (await report(`from=${today}&to=${today}&group=campaign`)).rows.find((row) => row.value === campaign)
    ?.shown ?? 0;

/** The funnel row of `key` in the dashboard's table `table`, as the page shows it. */
async function funnelRow(tab: Page, table: string, key: string): Promise<Record<string, string>> {
  return tab.evaluate(
    ([tableId, rowKey]): Record<string, string> => {
      const row = [...document.querySelectorAll(`#${tableId} tr`)].find(
        (each) => (each as HTMLElement).dataset.key === rowKey,
      );
      const cells = [...(row?.querySelectorAll<HTMLElement>('td[data-kind]') ?? [])];
      return Object.fromEntries(
        cells.map((cell): [string, string] => [cell.dataset.kind ?? '', cell.firstChild?.textContent ?? '']),
      );
    },
    [table, key] as const,
  );
}

describe('the club’s analytics', () => {
  it('counts the cards a page showed, once, and not the one below the fold', async () => {
    const tab = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    await tab.goto(page.url);
    await waitUntil(
      async () => (await shownFor('spring')) === 1 && (await shownFor('banner')) === 1,
      'cards shown',
    );
    // The page view stays open: the card stays counted once however long it is in view.
    await tab.reload();
    await waitUntil(
      async () => (await shownFor('spring')) === 2 && (await shownFor('banner')) === 2,
      'the second page view',
    );
    expect(await shownFor('below-the-fold')).toBe(0);
    await tab.close();
  }, 60_000);

  it('shows the funnel the test made on the dashboard, with the token asked once, and its CSV', async () => {
    // A fan signs in from the spring card's poll and votes with its campaign.
    const call = callAt(stack.proxy.url, []);
    const signedIn = await signIn(
      { call },
      { username: 'sam', tracking: { campaign: 'spring', poll: pollId } },
    );
    const poll = await openRiversidePollFromProxy(stack.proxy.url);
    const vote = await call(`${proxyRoutes.vote(pollId)}?campaign=spring&referrer=club-site`, {
      method: 'POST',
      cookie: signedIn.cookie ?? '',
      headers: { [csrfHeaderName]: csrfHeaderValue, 'Content-Type': 'application/json' },
      body: JSON.stringify({ answerId: poll.answers[0]?.id }),
    });
    expect(vote.status).toBe(201);
    await waitUntil(
      async () => (await report(`from=${today}&to=${today}`)).totals.accepted === 1,
      'the vote counted',
    );

    const context = await browser.newContext({
      viewport: { width: 1200, height: 1000 },
      acceptDownloads: true,
    });
    const tab = await context.newPage();
    const refusedScripts: string[] = [];
    tab.on('console', (message) => {
      if (message.type() === 'error') refusedScripts.push(message.text());
    });
    await tab.goto(`${stack.proxy.url}${analyticsPaths.analyticsDashboard}`);
    await tab.screenshot({ path: screenshotPath('analytics/1-token.png') });
    await tab.fill('#token', 'canary-wrong-token');
    await tab.click('#sign-in button[type=submit]');
    await expect.poll(() => tab.textContent('#sign-in-error')).toContain('refused');
    await tab.fill('#token', token);
    await tab.click('#sign-in button[type=submit]');
    await tab.waitForSelector('body[data-loaded=true]');
    expect(tab.url()).not.toContain(token);
    expect(await tab.evaluate(() => sessionStorage.getItem('fan-polls-analytics-token'))).toBe(token);

    expect(await funnelRow(tab, 'by-campaign', 'spring')).toEqual({
      shown: '2',
      signInStarted: '1',
      signedIn: '1',
      voted: '1',
      accepted: '1',
      refused: '0',
    });
    expect(await funnelRow(tab, 'by-campaign', 'banner')).toMatchObject({ shown: '2', voted: '0' });
    expect(await funnelRow(tab, 'by-poll', pollId)).toMatchObject({
      shown: '4',
      signedIn: '1',
      accepted: '1',
    });
    // The poll's question, as text, beside its id.
    expect(await tab.textContent(`#by-poll tr[data-key="${pollId}"] .question`)).toBe(question);
    expect(await tab.locator('#chart polyline').count()).toBe(3);
    await tab.screenshot({ path: screenshotPath('analytics/2-dashboard.png'), fullPage: true });

    // The token is asked once: a reload reads again without the form.
    await tab.reload();
    await tab.waitForSelector('body[data-loaded=true]');
    expect(await tab.isHidden('#sign-in')).toBe(true);

    const [download] = await Promise.all([tab.waitForEvent('download'), tab.click('#csv')]);
    const csv = await readFile(await download.path(), 'utf8');
    // The dashboard's default range: the last 30 days, today included.
    const from = new Date(Date.parse(today) - 29 * 86_400_000).toISOString().slice(0, 10);
    expect(download.suggestedFilename()).toBe(`fan-polls-analytics-${from}-${today}.csv`);
    expect(csv).toContain(`${pollId},spring,2,1,1,0,1,1,0`);
    expect(refusedScripts.filter((text) => text.includes('Content Security Policy'))).toEqual([]);
    await context.close();
  }, 60_000);
});
