// One fan vote per poll for the whole page, its banners and the other tabs of the proxy, in Chromium on the
// demo page with a card, a second card and a banner (`<fan-poll-frame>`) of one poll, and a second tab of the page:
// a vote cast in a card or in the banner shows in all of them within a second while every poll read is held (so no
// read of the live store's timer can be what brought it), one vote request leaves, and the platform records one vote.
// A forged "voted" hint from the partner's page shows for one read of the fan's poll at most, and never casts a vote.
import type { Frame, Locator, Page, Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { recordedAnswerIds } from '../support/recorded-vote.ts';
import { screenshotPath } from '../support/screenshots.ts';
import { useFanStack, recordFanPosts, type FanPage } from './widget-fan-page.ts';

const fans = useFanStack();
const { openAsNewFan, openSignIn, signInAs } = fans;

/** The proxy's public poll reads (the live store's), from any document of the page. */
const isPollRead = (url: string): boolean => new URL(url).pathname === '/api/polls';

interface OnePollPage {
  readonly fan: FanPage;
  readonly pollId: string;
  /** The demo page's first card, the second card of its poll, and the card in the banner of its poll. */
  readonly cards: { readonly first: Locator; readonly second: Locator; readonly banner: Locator };
  readonly bannerFrame: Frame;
}

/** Adds a second card and a banner of the first card's poll to `page`; resolves once the banner's card has data. */
async function addCardAndBanner(
  page: Page,
  pollId: string,
): Promise<{ second: Locator; banner: Locator; bannerFrame: Frame }> {
  await page.evaluate((id) => {
    const second = document.createElement('fan-poll');
    second.id = 'second-card';
    second.setAttribute('poll-id', id);
    second.setAttribute('eager', '');
    const banner = document.createElement('fan-poll-frame');
    banner.id = 'same-poll-banner';
    banner.setAttribute('poll-id', id);
    document.body.prepend(second, banner);
  }, pollId);
  const frameElement = page.locator('#same-poll-banner iframe');
  await frameElement.waitFor();
  const bannerFrame = (await (await frameElement.elementHandle()).contentFrame())!;
  const banner = bannerFrame.locator('fan-poll');
  await banner.locator('[part="phase"]').waitFor();
  return { second: page.locator('#second-card'), banner, bannerFrame };
}

/** A fresh sandbox (nobody voted), the demo page with a second card and a banner of its first card's poll, sam signed in. */
async function openOnePollPage(): Promise<OnePollPage> {
  fans.stack.sandbox.sandbox.reset();
  const fan = await openAsNewFan();
  const pollId = (await fan.card.getAttribute('poll-id'))!;
  const { second, banner, bannerFrame } = await addCardAndBanner(fan.page, pollId);
  await signInAs(await openSignIn(fan), 'sam');
  const cards = { first: fan.card, second, banner };
  for (const card of Object.values(cards)) await voteButton(card).waitFor({ timeout: 10_000 });
  return { fan, pollId, cards, bannerFrame };
}

const voteButton = (card: Locator): Locator => card.getByRole('button', { name: 'Vote', exact: true });
const votedLine = (card: Locator): Locator =>
  card.locator('[part="actions"] .outcome', { hasText: 'You voted for' });

/** Picks the second answer of `card` and presses Vote; returns the answer's id. */
async function voteInCard(card: Locator): Promise<string> {
  const answer = card.locator('input[type="radio"]').nth(1);
  const answerId = await answer.inputValue();
  await answer.check();
  await voteButton(card).click();
  return answerId;
}

/**
 * Holds every poll read of the browser context from now on (they go on once `release` is called): whatever shows
 * meanwhile did not come from a poll read. Returns how many were held.
 */
async function holdPollReads(page: Page): Promise<{ held: () => number; release: () => Promise<void> }> {
  const routes: Route[] = [];
  let releasing = false;
  const handler = async (route: Route): Promise<void> => {
    if (!isPollRead(route.request().url()) || releasing) return route.continue();
    routes.push(route);
  };
  await page.context().route('**/api/polls*', handler);
  return {
    held: () => routes.length,
    release: async () => {
      releasing = true;
      await page.context().unroute('**/api/polls*', handler);
      await Promise.all(routes.map((route) => route.continue().catch(() => undefined)));
    },
  };
}

/** The same demo page in another tab of the fan's browser, its first card (of the poll) signed in and ready. */
async function openSecondTab(fan: FanPage): Promise<{ tab: Page; card: Locator; votePosts: string[] }> {
  const tab = await fan.context.newPage();
  const { votePosts } = recordFanPosts(tab);
  await tab.goto(fans.stack.demo.url);
  const card = tab.locator('fan-poll').first();
  await voteButton(card).waitFor({ timeout: 10_000 });
  return { tab, card, votePosts };
}

async function expectShowsVote(card: Locator, answerId: string): Promise<void> {
  await votedLine(card).waitFor({ timeout: 1000 });
  expect(await card.locator('[part~="answer"][data-chosen] input').inputValue()).toBe(answerId);
  expect(await voteButton(card).count()).toBe(0);
}

describe('one fan vote per poll for the page, its banner and the proxy’s other tabs (Chromium)', () => {
  it.each([
    { where: 'a card', castIn: 'second', others: ['first', 'banner'] },
    { where: 'the banner', castIn: 'banner', others: ['first', 'second'] },
  ] as const)(
    'shows a vote cast in $where in the page’s other cards and another tab at once; one vote is sent and recorded',
    { timeout: 90_000 },
    async ({ castIn, others }) => {
      const { fan, pollId, cards } = await openOnePollPage();
      const other = await openSecondTab(fan);
      const hold = await holdPollReads(fan.page);
      const answerId = await voteInCard(cards[castIn]);
      await votedLine(cards[castIn]).waitFor({ timeout: 15_000 });
      // Every other card shows the vote within a second while every poll read waits: the vote travelled, not a read.
      for (const card of [...others.map((name) => cards[name]), other.card])
        await expectShowsVote(card, answerId);
      await fan.page.screenshot({ path: screenshotPath(`one-vote-${castIn}-to-all.png`) });
      await other.tab.screenshot({ path: screenshotPath(`one-vote-${castIn}-to-other-tab.png`) });
      await hold.release();
      // One vote request left the page and the other tab; the platform recorded one vote, for the answer chosen.
      expect(fan.votePosts).toHaveLength(1);
      expect(other.votePosts).toHaveLength(0);
      expect(await recordedAnswerIds(fans.stack.sandbox.sandbox, pollId, 'sam')).toEqual([answerId]);
      await fan.context.close();
    },
  );

  it(
    'undoes a forged “voted” hint from the partner’s page with one read of the fan’s poll, and casts no vote',
    { timeout: 90_000 },
    async () => {
      const { fan, pollId, cards, bannerFrame } = await openOnePollPage();
      const answerId = await cards.first.locator('input[type="radio"]').first().inputValue();
      const fanPollReads: string[] = [];
      fan.page.on('request', (request) => {
        if (request.method() === 'GET' && new URL(request.url()).pathname.startsWith('/api/user/polls/'))
          fanPollReads.push(request.url());
      });
      // A script of the partner's page says, as the bridge would, that the fan voted: to this page's cards through the
      // window event, and to the banner as its host.
      const proxy = new URL(fans.stack.proxy.url).origin;
      await fan.page.evaluate(
        ({ hint, bannerOrigin }) => {
          window.dispatchEvent(new CustomEvent('fan-polls:vote-heard', { detail: hint }));
          const frame = document.querySelector<HTMLIFrameElement>('#same-poll-banner iframe');
          frame?.contentWindow?.postMessage({ source: 'fan-polls-host', type: 'vote', hint }, bannerOrigin);
        },
        {
          hint: { proxy, pollId, answerId, voteStatus: 'accepted' },
          bannerOrigin: new URL(bannerFrame.url()).origin,
        },
      );
      // Each card asks the proxy whether the fan voted, and offers the vote again once the answer says no.
      for (const card of Object.values(cards)) await voteButton(card).waitFor({ timeout: 5000 });
      expect(fanPollReads.length).toBeGreaterThan(0);
      await fan.page.screenshot({ path: screenshotPath('one-vote-forged-hint-undone.png') });
      expect(fan.votePosts).toHaveLength(0);
      expect(await recordedAnswerIds(fans.stack.sandbox.sandbox, pollId, 'sam')).toEqual([]);
      await fan.context.close();
    },
  );
});
