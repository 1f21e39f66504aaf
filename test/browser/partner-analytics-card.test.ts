// The club's campaign analytics from the fans' own clicks, in Chromium: two partner pages with a card of one poll each,
// each card with its own campaign. One fan signs in through the first card's pop-up and votes in it; another signs in
// from the second card without a pop-up (`sign-in="redirect"`: the page goes to the sign-in and back) and votes in it.
// The proxy's report then shows each sign-in and vote under its card's poll and campaign, as the platform recorded
// them.
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnalyticsRow } from '../../src/contracts/analytics-contract.ts';
import { openRiversidePollFromProxy } from '../support/open-poll.ts';
import type { PageServer } from '../support/page-server.ts';
import { recordedAnswerIds } from '../support/recorded-vote.ts';
import { screenshotPath } from '../support/screenshots.ts';
import type { SandboxAndProxy } from '../support/stack.ts';
import { waitUntil } from '../support/wait-until.ts';
import { analyticsReport, startAnalyticsStack, today } from './analytics-stack.ts';
import { servePartnerPage } from './partner-page.ts';
import { ensureWidgetBuilt, launchChromium } from './widget-stack.ts';

let browser: Browser;
let stack: SandboxAndProxy;
let derbyPage: PageServer;
let pushPage: PageServer;
let pollId: string;

beforeAll(async () => {
  ensureWidgetBuilt();
  stack = await startAnalyticsStack();
  pollId = (await openRiversidePollFromProxy(stack.proxy.url)).id;
  const pageWith = (card: string) => servePartnerPage(stack.proxy.url, card);
  derbyPage = await pageWith(
    `<fan-poll poll-id="${pollId}" campaign="derby-day" referrer="club-site" param1="hero" eager></fan-poll>`,
  );
  pushPage = await pageWith(
    `<fan-poll poll-id="${pollId}" campaign="push-alert" referrer="club-app" sign-in="redirect" eager></fan-poll>`,
  );
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser.close();
  await stack.close();
  await derbyPage.close();
  await pushPage.close();
});

const report = (query: string) => analyticsReport(stack.proxy.url, `from=${today}&to=${today}&${query}`);

/** The report's row of `value` (a campaign or a referrer) in the poll's report grouped by `group`. */
const rowOf = async (group: string, value: string): Promise<AnalyticsRow | undefined> =>
  (await report(`poll=${pollId}&group=${group}`)).rows.find((row) => row.value === value);

/** Signs `username` in on the platform's consent page shown in `tab`. */
async function consentAs(tab: Page, username: string): Promise<void> {
  await tab.getByLabel('Username').fill(username);
  await tab.getByLabel('Password').fill('fan-polls');
  await tab.getByRole('button', { name: 'Sign in and allow' }).click();
}

/** Picks the card's second answer; its id. */
async function pickSecond(card: Locator): Promise<string> {
  const input = card.locator('[part~="answer"]').nth(1).locator('input');
  await input.check();
  return input.evaluate((element) => (element as HTMLInputElement).value);
}

async function voteIn(card: Locator): Promise<void> {
  await card.getByRole('button', { name: 'Vote', exact: true }).click();
  await card.locator('[part="actions"]').getByText('You voted for').waitFor({ timeout: 15_000 });
}

describe('the club’s analytics of a card’s sign-ins and votes', () => {
  it('counts each sign-in and vote under the poll and campaign of the card the fan used', async () => {
    // Sam: the pop-up, from the derby card.
    const samContext = await browser.newContext({ viewport: { width: 1200, height: 900 } });
    const samTab = await samContext.newPage();
    await samTab.goto(derbyPage.url);
    const derby = samTab.locator('fan-poll');
    await derby.getByRole('button', { name: 'Sign in to vote' }).waitFor();
    // The card is live (its element code has rendered it) before the fan taps: this test counts the pop-up's
    // sign-in, and a tap on the drawn card before that is kept and acted on once live, when the browser may refuse
    // the pop-up (seen once in a loaded run: no window opened).
    await samTab.waitForFunction(
      () => document.querySelector<HTMLElement & { hasUpdated?: boolean }>('fan-poll')?.hasUpdated === true,
    );
    const samAnswer = await pickSecond(derby);
    const [popup] = await Promise.all([
      samContext.waitForEvent('page'),
      derby.getByRole('button', { name: 'Sign in to vote' }).click(),
    ]);
    await Promise.all([popup.waitForEvent('close'), consentAs(popup, 'sam')]);
    await voteIn(derby);
    await derby.screenshot({ path: screenshotPath('analytics/card-1-popup-voted.png') });

    // Alex: no pop-up, from the push card: the page goes to the sign-in and comes back with the pick kept.
    const alexContext = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const alexTab = await alexContext.newPage();
    await alexTab.goto(pushPage.url);
    const push = alexTab.locator('fan-poll');
    const alexAnswer = await pickSecond(push);
    await push.getByRole('button', { name: 'Continue to sign in' }).click();
    await alexTab.getByLabel('Username').waitFor();
    await consentAs(alexTab, 'alex');
    await alexTab.waitForURL(`${pushPage.url}/`);
    await voteIn(push);
    await push.screenshot({ path: screenshotPath('analytics/card-2-redirect-voted.png') });

    expect(await recordedAnswerIds(stack.sandbox.sandbox, pollId, 'sam')).toEqual([samAnswer]);
    expect(await recordedAnswerIds(stack.sandbox.sandbox, pollId, 'alex')).toEqual([alexAnswer]);
    // The counting runs beside each request: the report has it within moments.
    await waitUntil(async () => (await report(`poll=${pollId}`)).totals.accepted === 2, 'both votes counted');
    const counted = { signInStarted: 1, signedIn: 1, signInFailed: 0, voted: 1, accepted: 1, refused: 0 };
    expect(await rowOf('campaign', 'derby-day')).toMatchObject(counted);
    expect(await rowOf('campaign', 'push-alert')).toMatchObject(counted);
    expect(await rowOf('referrer', 'club-site')).toMatchObject(counted);
    expect(await rowOf('referrer', 'club-app')).toMatchObject(counted);
    expect(await rowOf('param1', 'hero')).toMatchObject(counted);
    // Every sign-in named its poll: none is counted for no poll.
    const all = await report('group=campaign');
    expect(all.rows.filter((row) => row.poll === null)).toEqual([]);
    expect(all.totals).toMatchObject({ signInStarted: 2, signedIn: 2, voted: 2, accepted: 2 });
    await samContext.close();
    await alexContext.close();
  }, 90_000);
});
