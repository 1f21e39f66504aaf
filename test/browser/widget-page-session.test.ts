// One fan session for the page, in Chromium on the demo page: a sign-in, a sign-out or a switch of account
// on any card, script tag or iframe banner, reaches every card without a reload; a fan votes by keyboard alone, focus
// stays on the card, the platform records the vote, and the card marks it after a reload; a vote cast in one card of a
// poll shows in the page's other card of that poll within a second, with one vote sent.
import type { Frame, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { proxyRoutes } from '../../src/contracts/proxy-contract.ts';
import { findFanByUsername } from '../../src/sandbox/data/fans.ts';
import { recordedAnswerIds } from '../support/recorded-vote.ts';
import { screenshotPath } from '../support/screenshots.ts';
import { afterCardsSettle, useFanStack } from './widget-fan-page.ts';

const fans = useFanStack();
const { openAsNewFan, openSignIn, signInAs } = fans;

interface CardState {
  readonly phase: string | undefined;
  readonly button: string | undefined;
  readonly account: string | undefined;
}

/** What every card of a document that has data shows: its phase, its action button and its account line. */
function cardStates(frame: Page | Frame): Promise<CardState[]> {
  return frame.evaluate(() =>
    [...document.querySelectorAll('fan-poll')].flatMap((card) => {
      const root = card.shadowRoot;
      const phase = root?.querySelector('[part="phase"]')?.getAttribute('data-phase') ?? undefined;
      if (!phase) return [];
      return [
        {
          phase,
          button: root?.querySelector('[part="button"]')?.textContent.trim(),
          account: root?.querySelector('[part="account"] span')?.getAttribute('title') ?? undefined,
        },
      ];
    }),
  );
}

/** The open cards of the page and of its banner. */
async function openCardStates(page: Page): Promise<CardState[]> {
  const banner = bannerFrame(page);
  const states = [...(await cardStates(page)), ...(await cardStates(banner))];
  return states.filter((state) => state.phase === 'open');
}

function bannerFrame(page: Page): Frame {
  const frame = page.frames().find((each) => each.url().includes('/widget/embed/poll.html'));
  if (!frame) throw new Error('The demo page has no banner frame.');
  return frame;
}

const userIdOf = (username: string): string => findFanByUsername(username)!.userId;

describe('one fan session for the page (Chromium, demo page, proxy popup)', () => {
  it(
    'signs every card and the banner in, out and as someone else from any one of them, without a reload',
    { timeout: 90_000 },
    async () => {
      const fan = await openAsNewFan();
      const { page, card } = fan;
      let navigations = 0;
      page.on('framenavigated', (frame) => {
        if (frame === page.mainFrame()) navigations += 1;
      });
      const banner = bannerFrame(page);
      await banner.locator('fan-poll [part="button"]', { hasText: 'Sign in to vote' }).waitFor();
      const before = await openCardStates(page);
      // The report's card and the banner are open polls of the club on the demo page.
      expect(before.length).toBeGreaterThanOrEqual(2);
      expect(before.every((state) => state.button === 'Sign in to vote')).toBe(true);

      // Sign in once, on the first script-tag card: every open card and the banner follow.
      await signInAs(await openSignIn(fan), 'sam');
      const sam = userIdOf('sam');
      await expect
        .poll(() => openCardStates(page), { timeout: 5000 })
        .toEqual(before.map(() => ({ phase: 'open', button: 'Vote', account: sam })));
      await page.screenshot({ path: screenshotPath('page-session-signed-in.png'), fullPage: true });
      // One sign-in window in all: no card asked for the password again.
      expect(page.context().pages()).toHaveLength(1);

      // Sign out from the banner: every card of the page is signed out, and the proxy's session is gone.
      const revokesBefore = fans.stack.upstream.filter((call) => call.path.endsWith('/revoke')).length;
      await banner.locator('fan-poll').getByRole('button', { name: 'Sign out' }).click();
      await expect
        .poll(() => openCardStates(page), { timeout: 5000 })
        .toEqual(before.map(() => ({ phase: 'open', button: 'Sign in to vote', account: undefined })));
      const session = await page.evaluate(async (url) => {
        const response = await fetch(url, {
          credentials: 'include',
          headers: { 'X-Fan-Polls-Request': '1' },
        });
        return (await response.json()) as unknown;
      }, `${fans.stack.proxy.url}${proxyRoutes.session}`);
      expect(session).toEqual({ signedIn: false });
      // The platform was told: both of the fan's tokens were revoked.
      expect(fans.stack.upstream.filter((call) => call.path.endsWith('/revoke')).length - revokesBefore).toBe(
        2,
      );

      // Sign in again, then switch account from the banner: every card now shows the new fan.
      await signInAs(await openSignIn(fan), 'sam');
      await expect
        .poll(() => openCardStates(page), { timeout: 5000 })
        .toEqual(before.map(() => ({ phase: 'open', button: 'Vote', account: sam })));
      const [popup] = await Promise.all([
        page.context().waitForEvent('page'),
        banner.locator('fan-poll').getByRole('button', { name: 'Switch account' }).click(),
      ]);
      await popup.getByLabel('Username').waitFor();
      await signInAs(popup, 'alex');
      const alex = userIdOf('alex');
      await expect
        .poll(() => openCardStates(page), { timeout: 5000 })
        .toEqual(before.map(() => ({ phase: 'open', button: 'Vote', account: alex })));
      expect(await card.locator('[part="account"]').textContent()).toContain(
        `Signed in as ${alex.slice(0, 8)}…`,
      );
      expect(navigations).toBe(0);
      await fan.context.close();
    },
  );

  it(
    'votes by keyboard alone with focus kept on the card; the platform records it and the card marks it after a reload',
    { timeout: 90_000 },
    async () => {
      const fan = await openAsNewFan();
      const { page, card } = fan;
      const pollId = (await card.getAttribute('poll-id'))!;
      // Tab from the top of the page into the first card (past the page's links and the banner).
      await page.locator('body').focus();
      for (let presses = 0; presses < 80; presses += 1) {
        await page.keyboard.press('Tab');
        const inCard = await card.evaluate((element) => document.activeElement === element);
        if (inCard) break;
      }
      const focused = () =>
        card.evaluate((element) => {
          const active = element.shadowRoot?.activeElement as HTMLInputElement | null | undefined;
          return { tag: active?.tagName, value: active?.value, text: active?.textContent.trim() };
        });
      expect((await focused()).tag).toBe('INPUT');
      // Arrow keys move the choice in the radio group; Tab goes on to the card's button.
      await page.keyboard.press('ArrowDown');
      const answerId = (await focused()).value!;
      await page.keyboard.press('Tab');
      expect((await focused()).text).toBe('Sign in to vote');
      const [popup] = await Promise.all([fan.context.waitForEvent('page'), page.keyboard.press('Enter')]);
      await popup.getByLabel('Username').waitFor();
      await signInAs(popup, 'sam');
      const vote = card.getByRole('button', { name: 'Vote', exact: true });
      await vote.waitFor();
      const sandboxPoll = () => fans.stack.sandbox.sandbox.state.polls.find(pollId)!;
      const votesBefore = sandboxPoll().votes.length;
      await vote.focus();
      await page.keyboard.press('Enter');
      await card
        .locator('[part="actions"] .outcome', { hasText: 'You voted for' })
        .waitFor({ timeout: 15_000 });
      // The button went; focus stayed on the card, on the line that says the vote.
      await expect.poll(async () => (await focused()).text).toMatch(/^You voted for /);
      expect(await card.evaluate((element) => document.activeElement === element)).toBe(true);
      await card.screenshot({ path: screenshotPath('page-session-voted-by-keyboard.png') });
      // What the platform recorded: one vote, by sam, for the answer chosen with the keyboard.
      const added = sandboxPoll().votes.slice(votesBefore);
      expect(added).toHaveLength(1);
      expect(added[0]).toMatchObject({ answerId, userId: userIdOf('sam') });

      await page.reload();
      const chosen = card.locator('[part~="answer"][data-chosen]');
      await chosen.waitFor({ timeout: 15_000 });
      expect(
        await chosen.locator('input').evaluate((input: HTMLInputElement) => [input.value, input.checked]),
      ).toEqual([answerId, true]);
      expect(await chosen.textContent()).toContain('Your vote');
      expect(await card.locator('[part~="answer"][data-chosen]').count()).toBe(1);
      await fan.context.close();
    },
  );
  it('shows a vote cast in one card in the other card of the poll within a second, with one vote sent (one fan vote per poll for the page)', async () => {
    // The keyboard test above voted as sam in this poll: start from a sandbox where nobody has.
    fans.stack.sandbox.sandbox.reset();
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
    await afterCardsSettle(page, card, second);
    expect(votePosts).toHaveLength(1);
    expect(await recordedAnswerIds(fans.stack.sandbox.sandbox, pollId, 'sam')).toEqual([answerId]);
    await fan.context.close();
  });
});
