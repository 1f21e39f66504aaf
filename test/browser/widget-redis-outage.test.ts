// A Redis outage as the fan sees it, in Chromium: a partner page's card signed in through the proxy's popup, the
// proxy's Redis (Debian's redis-server) stopped under it. The fan's tap on Vote gets the card's calm sentence, the pick
// and the signed-in look stay, and the platform records nothing; with Redis back, the same tap votes once, with no
// second sign-in. Each state is saved under dist/screenshots/redis-outage/.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRiversidePollFromProxy } from '../support/open-poll.ts';
import type { PageServer } from '../support/page-server.ts';
import { recordedAnswerIds } from '../support/recorded-vote.ts';
import { startRedis, type TestRedis } from '../support/redis-server.ts';
import { screenshotPath } from '../support/screenshots.ts';
import type { SandboxAndProxy } from '../support/stack.ts';
import { waitUntil } from '../support/wait-until.ts';
import { servePartnerPage } from './partner-page.ts';
import { fanPages } from './widget-fan-page.ts';
import { ensureWidgetBuilt, launchChromium, startStackAllowing } from './widget-stack.ts';

const unavailableSentence = 'Voting is briefly unavailable. Please try again in a moment.';

let redis: TestRedis;
let stack: SandboxAndProxy;
let page: PageServer;
let browser: Browser;
let pollId: string;

beforeAll(async () => {
  ensureWidgetBuilt();
  redis = await startRedis();
  // Loopback pages are allowed on the sandbox preset: the partner's page below is one.
  stack = await startStackAllowing('https://www.club.example', {
    simulate: false,
    env: { FAN_POLLS_REDIS_URL: redis.url },
  });
  const proxy = stack.proxy.url;
  pollId = (await openRiversidePollFromProxy(proxy)).id;
  page = await servePartnerPage(proxy, `<fan-poll poll-id="${pollId}" campaign="outage" eager></fan-poll>`);
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser.close();
  await stack.close();
  await page.close();
  await redis.close();
}, 30_000);

const fans = fanPages(() => ({ browser, stack: { ...stack, demo: page } }));
const upstreamVotes = () =>
  stack.upstream.filter((request) => request.method === 'POST' && request.path.endsWith('/vote')).length;
const ready = async () => (await fetch(`${stack.proxy.url}/readyz`)).status === 200;

describe('a signed-in card while the proxy’s Redis is down', () => {
  it('says voting is briefly unavailable, records nothing, and votes once when Redis is back', async () => {
    const fan = await fans.openAsNewFan();
    const { card } = fan;
    const shot = (name: string) => card.screenshot({ path: screenshotPath(`redis-outage/${name}.png`) });
    const errors: string[] = [];
    await fan.page.exposeFunction('recordError', (code: string) => errors.push(code));
    await fan.page.evaluate(() => {
      document.addEventListener('fan-poll-error', (event) => {
        void (window as unknown as { recordError(code: string): Promise<void> }).recordError(
          event.detail.code,
        );
      });
    });
    const answer = card.locator('[part~="answer"]').nth(1);
    const answerId = await answer.locator('input').evaluate((input) => (input as HTMLInputElement).value);
    await answer.locator('input').check();
    await fans.signInAs(await fans.openSignIn(fan), 'sam');
    const vote = card.getByRole('button', { name: 'Vote', exact: true });
    await vote.waitFor();
    await card.getByText('Signed in as').waitFor();
    await shot('1-signed-in');

    await redis.stop();
    await vote.click();
    const status = card.locator('[part="status"]');
    await status.getByText(unavailableSentence).waitFor();
    expect(errors).toEqual(['voting-unavailable']);
    // The fan's pick and signed-in look stay; the button offers the vote again; nothing reached the platform.
    expect(await card.locator('input:checked').evaluate((input) => (input as HTMLInputElement).value)).toBe(
      answerId,
    );
    expect(await card.getByText('Signed in as').isVisible()).toBe(true);
    expect(await vote.getAttribute('aria-disabled')).toBe('false');
    expect(await card.textContent()).not.toContain('Sign-in did not work');
    expect(upstreamVotes()).toBe(0);
    expect(await recordedAnswerIds(stack.sandbox.sandbox, pollId, 'sam')).toEqual([]);
    await shot('2-unavailable');

    await redis.start();
    await waitUntil(ready, 'the proxy ready again', 20_000);
    await vote.click();
    await card.locator('[part="actions"]').getByText('You voted for').waitFor({ timeout: 15_000 });
    expect(await status.count()).toBe(0);
    expect(upstreamVotes()).toBe(1);
    expect(await recordedAnswerIds(stack.sandbox.sandbox, pollId, 'sam')).toEqual([answerId]);
    expect(errors).toEqual(['voting-unavailable']);
    await shot('3-voted');
    await fan.context.close();
  }, 90_000);

  it('says the same, not that sign-in failed, to a fan who signs in meanwhile', async () => {
    const fan = await fans.openAsNewFan();
    const { card } = fan;
    await redis.stop();
    try {
      const [popup] = await Promise.all([
        fan.context.waitForEvent('page'),
        card.getByRole('button', { name: 'Sign in to vote' }).click(),
      ]);
      // The proxy's own page says it in the pop-up, tells the card, and closes.
      await popup.waitForEvent('close');
      await card.locator('[part="status"]').getByText(unavailableSentence).waitFor();
      expect(await card.textContent()).not.toContain('Sign-in did not work');
      expect(await card.getByRole('button', { name: 'Sign in to vote' }).getAttribute('aria-disabled')).toBe(
        'false',
      );
      await card.screenshot({ path: screenshotPath('redis-outage/4-sign-in-unavailable.png') });
    } finally {
      await redis.start();
    }
    await fan.context.close();
  }, 60_000);
});
