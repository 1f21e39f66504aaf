// One fan vote per poll for the page (issue 24), in Chromium on the demo page: two cards of one poll; a vote in one
// shows in the other within a second, the other offers no second **Vote**, one vote request leaves the page and the
// platform recorded exactly one vote.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordedAnswerIds } from '../support/recorded-vote.ts';
import { fanPages } from './widget-fan-page.ts';
import { ensureWidgetBuilt, launchChromium, startWidgetStack, type WidgetStack } from './widget-stack.ts';

let stack: WidgetStack;
let browser: Browser;

beforeAll(async () => {
  ensureWidgetBuilt();
  stack = await startWidgetStack({ simulate: false });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser.close();
  await stack.close();
});

const { openAsNewFan, openSignIn, signInAs } = fanPages(() => ({ browser, stack }));

describe('one fan vote per poll for the page (Chromium, demo page, proxy popup)', () => {
  it('shows a vote cast in one card in the other card of the poll within a second, with one vote sent', async () => {
    const fan = await openAsNewFan();
    const { page, card, votePosts } = fan;
    const pollId = (await card.getAttribute('poll-id'))!;
    // A second card of the same poll, at the top of the page.
    await page.evaluate((id) => {
      const second = document.createElement('fan-poll');
      second.id = 'second-card';
      second.setAttribute('poll-id', id);
      second.setAttribute('eager', '');
      document.body.prepend(second);
    }, pollId);
    const second = page.locator('#second-card');
    await signInAs(await openSignIn(fan), 'sam');
    for (const each of [card, second])
      await each.getByRole('button', { name: 'Vote', exact: true }).waitFor();
    const answerId = await second
      .locator('input[type="radio"]')
      .nth(1)
      .evaluate((input: HTMLInputElement) => {
        input.click();
        return input.value;
      });
    await second.getByRole('button', { name: 'Vote', exact: true }).click();
    await second
      .locator('[part="actions"] .outcome', { hasText: 'You voted for' })
      .waitFor({ timeout: 15_000 });
    const shownAt = Date.now();
    // The first card shows the vote within a second, and offers no Vote any more.
    await card.locator('[part="actions"] .outcome', { hasText: 'You voted for' }).waitFor({ timeout: 1000 });
    expect(Date.now() - shownAt).toBeLessThan(1000);
    expect(await card.locator('[part~="answer"][data-chosen] input').inputValue()).toBe(answerId);
    expect(await card.getByRole('button', { name: 'Vote', exact: true }).count()).toBe(0);
    expect(await second.getByRole('button', { name: 'Vote', exact: true }).count()).toBe(0);
    // One vote request left the page; the platform recorded one vote, for the answer chosen.
    await page.waitForTimeout(500);
    expect(votePosts).toHaveLength(1);
    expect(await recordedAnswerIds(stack.sandbox.sandbox, pollId, 'sam')).toEqual([answerId]);
    await fan.context.close();
  });
});
