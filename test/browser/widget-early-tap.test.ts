// A tap on the README's recommended card before it is live, on a phone (Chromium, 390 x 844, touch): the proxy's
// drawing is on screen while `fan-polls-hydrate.js` is still on its way (held back here until the taps are done). The
// answer the fan taps is picked at once, by the native radio, and stays picked once the card is live; the button shows
// that it is getting ready until then, and a tap on it does nothing. Nothing signs in nor votes by itself: the signed-out fan is
// offered the sign-in, the signed-in fan the vote, and the platform records the answer tapped before the card was live
// once the fan taps Vote. The card and its answers and button do not move meanwhile. An open card goes live without
// waiting for its details chunk (the voting's): a tap on its button meanwhile takes effect once that chunk arrives.
// Each state is saved under `dist/screenshots/early-tap/`.
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { proxyRoutes } from '../../src/contracts/proxy-contract.ts';
import { drawnCardMark } from '../../widget/delivery/drawn-cards.ts';
import { recordedAnswerIds } from '../support/recorded-vote.ts';
import { screenshotPath } from '../support/screenshots.ts';
import { recordFanPosts, useFanStack, type FanPage } from './widget-fan-page.ts';

const fans = useFanStack();
/** The button's whole label "Vote" (never "Sign in to vote"). */
const voteLabel = /^\s*Vote\s*$/;
const { openSignIn, signInAs } = fans;

const shot = (page: Page, name: string) =>
  page
    .locator('fan-poll')
    .first()
    .screenshot({ path: screenshotPath(`early-tap/${name}.png`) });

/** Where the card and each of its answers and its button are (CSS px): the same before and after it is live. */
function layoutOf(card: Element) {
  const box = (element: Element) => {
    const { x, y, width, height } = element.getBoundingClientRect();
    return { x, y, width, height };
  };
  return {
    card: box(card),
    targets: [...card.shadowRoot!.querySelectorAll('[part~="answer"], [part="button"]')].map(box),
  };
}

interface HeldPage extends FanPage {
  /** Lets `fan-polls-hydrate.js` through: the card goes live. */
  readonly release: () => void;
  /** The `fan-poll-sign-in` and `fan-poll-vote` events the page heard. */
  readonly events: () => Promise<string[]>;
}

/** A request held back until `release`; `asked` resolves once the page made it. */
interface HeldRequest {
  readonly asked: Promise<void>;
  readonly release: () => void;
}

async function holdRequests(page: Page, url: RegExp): Promise<HeldRequest> {
  let release = () => {};
  let ask = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  const asked = new Promise<void>((resolve) => (ask = resolve));
  await page.route(url, (route) => {
    ask();
    return released.then(() => route.continue());
  });
  return { asked, release };
}

/**
 * The demo page on `phone`'s context, its main card drawn by the proxy and not live: the hydrating code is held.
 * `prepare` runs on the page before it opens.
 */
async function openHeld(
  fan: Pick<FanPage, 'context'>,
  prepare?: (page: Page) => Promise<unknown>,
): Promise<HeldPage> {
  const page = await fan.context.newPage();
  await prepare?.(page);
  const { release } = await holdRequests(page, /\/fan-polls-hydrate\.js$/);
  await page.addInitScript(() => {
    const heard: string[] = [];
    (window as unknown as { cardEvents: string[] }).cardEvents = heard;
    for (const name of ['fan-poll-sign-in', 'fan-poll-vote'])
      document.addEventListener(name, (event) =>
        heard.push(`${name}:${JSON.stringify((event as CustomEvent).detail)}`),
      );
  });
  const posts = recordFanPosts(page);
  await page.goto(fans.stack.demo.url);
  const card = page.locator('fan-poll').first();
  await card.locator('[part="question"]').waitFor();
  // Drawn by the proxy, and not live: no element code has run.
  expect(
    await page.evaluate(
      (mark) => ({
        drawn: performance.getEntriesByName(mark, 'mark').length,
        defined: customElements.get('fan-poll') !== undefined,
      }),
      drawnCardMark,
    ),
  ).toEqual({ drawn: 1, defined: false });
  return {
    context: fan.context,
    page,
    card,
    ...posts,
    release,
    events: () => page.evaluate(() => (window as unknown as { cardEvents: string[] }).cardEvents),
  };
}

/**
 * The fan taps answer `nth`, then the button, of a card that is not live: the answer is picked at once; the button
 * shows that it is getting ready (its waiting look: dimmed, a progress cursor) and the tap does nothing else. Saves
 * the card as `name`; resolves with where its parts are then.
 */
async function tapEarly(held: HeldPage, nth: number, name: string): Promise<ReturnType<typeof layoutOf>> {
  const { page, card } = held;
  await card.scrollIntoViewIfNeeded();
  await card.locator('[part~="answer"]').nth(nth).tap();
  expect(await checkedIndex(card)).toBe(nth);
  const button = card.locator('[part="button"]');
  expect(await button.getAttribute('aria-disabled')).toBe('true');
  expect(await button.evaluate((element) => getComputedStyle(element).cursor)).toBe('progress');
  // A touch where the button is (Playwright's own tap waits for a button that is not aria-disabled).
  const box = (await button.boundingBox())!;
  await page.touchscreen.tap(box.x + box.width / 2, box.y + box.height / 2);
  expect(await checkedIndex(card)).toBe(nth);
  await shot(page, name);
  return card.evaluate(layoutOf);
}

/** The index of the card's checked radio (-1: none). */
function checkedIndex(card: Locator): Promise<number> {
  return card.evaluate((element) =>
    [...element.shadowRoot!.querySelectorAll('input[type="radio"]')].findIndex(
      (input) => (input as HTMLInputElement).checked,
    ),
  );
}

/** The answer id of the card's radio `nth` (known once the card is live). */
function answerIdAt(card: Locator, nth: number): Promise<string> {
  return card.locator('[part~="answer"] input').nth(nth).inputValue();
}

/**
 * The fan taps the live card's Vote: the card says the vote is in, and the platform recorded `picked` for `fan`, from
 * one vote request. Saves the card as `name`.
 */
async function voteAndCheckRecorded(
  held: HeldPage,
  fan: string,
  picked: string,
  name: string,
): Promise<void> {
  const { page, card } = held;
  await card.locator('[part="button"][aria-disabled="false"]', { hasText: voteLabel }).tap();
  await card.locator('[part="actions"]', { hasText: 'You voted for' }).waitFor();
  await shot(page, name);
  const pollId = (await card.getAttribute('poll-id'))!;
  expect(await recordedAnswerIds(fans.stack.sandbox.sandbox, pollId, fan)).toEqual([picked]);
  expect(held.votePosts).toHaveLength(1);
}

async function newPhone(): Promise<Pick<FanPage, 'context'>> {
  const context = await fans.browser.newContext({
    isMobile: true,
    hasTouch: true,
    viewport: { width: 390, height: 844 },
  });
  return { context };
}

describe('a tap on the drawn card before it is live (Chromium, 390 x 844, touch)', () => {
  it('keeps the answer picked, shows the button getting ready, signs nobody in by itself', async () => {
    const phone = await newPhone();
    const held = await openHeld(phone);
    const { page, card } = held;
    const before = await tapEarly(held, 1, 'signed-out-1-tapped-before-live');

    // The card goes live, and its voting finds the fan signed out (the page's session check is answered).
    const sessionChecked = page.waitForResponse((response) =>
      new URL(response.url()).pathname.endsWith(proxyRoutes.session),
    );
    held.release();
    await sessionChecked;
    const signIn = card.locator('[part="button"]', { hasText: 'Sign in to vote' });
    await page.locator('fan-poll:defined').first().waitFor();
    await card.evaluate(
      (element) => (element as unknown as { updateComplete: Promise<unknown> }).updateComplete,
    );
    expect(await signIn.getAttribute('aria-disabled')).toBe('false');
    expect(await checkedIndex(card)).toBe(1);
    expect(await card.evaluate(layoutOf)).toEqual(before);
    await shot(page, 'signed-out-2-live');
    // No sign-in started by the early tap: no window, no event.
    expect(phone.context.pages()).toHaveLength(1);
    expect(await held.events()).toEqual([]);

    // The fan's own tap on the live button signs in; the pick made before the card was live is the vote.
    const picked = await answerIdAt(card, 1);
    await signInAs(await openSignIn(held), 'sam');
    const vote = card.locator('[part="button"][aria-disabled="false"]', { hasText: voteLabel });
    await vote.waitFor();
    expect(await checkedIndex(card)).toBe(1);
    expect(held.votePosts).toEqual([]);
    await voteAndCheckRecorded(held, 'sam', picked, 'signed-out-3-voted');
    await phone.context.close();
  }, 60_000);

  it('never votes for a signed-in fan by itself: the answer tapped early is the vote once the fan taps Vote', async () => {
    // alex (who holds Riverside's tokens) signs in first, on the demo page once its card is live.
    const phone = await newPhone();
    const first = await phone.context.newPage();
    await first.goto(fans.stack.demo.url);
    const firstCard = first.locator('fan-poll').first();
    await first.locator('fan-poll:defined').first().waitFor();
    const signedOut = { ...phone, page: first, card: firstCard, votePosts: [], handoffPosts: [] };
    await signInAs(await openSignIn(signedOut), 'alex');
    await firstCard.locator('[part="button"][aria-disabled="false"]', { hasText: voteLabel }).waitFor();
    await first.close();

    const held = await openHeld(phone);
    const { page, card } = held;
    const before = await tapEarly(held, 2, 'signed-in-1-tapped-before-live');
    held.release();
    // Live, signed in, the fan's vote read: the card offers Vote, with the answer tapped before it was live picked.
    const vote = card.locator('[part="button"][aria-disabled="false"]', { hasText: voteLabel });
    await vote.waitFor();
    expect(await checkedIndex(card)).toBe(2);
    const pollId = (await card.getAttribute('poll-id'))!;
    expect(held.votePosts).toEqual([]);
    expect(await recordedAnswerIds(fans.stack.sandbox.sandbox, pollId, 'alex')).toEqual([]);
    expect(await held.events()).toEqual([]);
    // The answers and the button stay where they were (the button's label is now "Vote"); the account line, which says
    // who is signed in, is added under them.
    const after = await card.evaluate(layoutOf);
    const place = ({ x, y, height }: { x: number; y: number; height: number }) => ({ x, y, height });
    expect(after.targets.map(place)).toEqual(before.targets.map(place));
    expect([after.card.x, after.card.y]).toEqual([before.card.x, before.card.y]);
    await shot(page, 'signed-in-2-live');

    await voteAndCheckRecorded(held, 'alex', await answerIdAt(card, 2), 'signed-in-3-voted');
    await phone.context.close();
  }, 60_000);

  it('goes live before its details chunk is here: a tap on Sign in then opens the sign-in once the chunk arrives', async () => {
    // Nobody voted yet: sam votes again.
    fans.stack.sandbox.sandbox.reset();
    const phone = await newPhone();
    let details: HeldRequest | undefined;
    const held = await openHeld(phone, async (page) => {
      details = await holdRequests(page, /\/chunks\/hydrate-card-details-[\w-]+\.js$/);
    });
    const { page, card } = held;
    // The question's text as drawn: hydration keeps this node, a new render would replace it.
    await card.evaluate((element) => {
      const question = element.shadowRoot!.querySelector('[part="question"]')!;
      Object.assign(window, {
        drawnQuestion: [...question.childNodes].find((node) => node.textContent?.trim()),
      });
    });
    held.release();
    await page.locator('fan-poll:defined').first().waitFor();
    await card.evaluate(
      (element) => (element as unknown as { updateComplete: Promise<unknown> }).updateComplete,
    );
    // Live, hydrated as drawn, while the details chunk it asked for is still on its way.
    await details!.asked;
    const signIn = card.locator('[part="button"]', { hasText: 'Sign in to vote' });
    expect(await signIn.getAttribute('aria-disabled')).toBe('false');
    expect(
      await card.evaluate((element) =>
        element
          .shadowRoot!.querySelector('[part="question"]')!
          .contains((window as unknown as { drawnQuestion: Node }).drawnQuestion),
      ),
    ).toBe(true);
    await shot(page, 'details-held-1-live');

    await card.locator('[part~="answer"]').nth(0).tap();
    expect(await checkedIndex(card)).toBe(0);
    const box = (await signIn.boundingBox())!;
    await page.touchscreen.tap(box.x + box.width / 2, box.y + box.height / 2);
    expect(phone.context.pages()).toHaveLength(1);
    // The chunk arrives: the tap made before takes effect, the sign-in opens.
    const popup = phone.context.waitForEvent('page');
    details!.release();
    const signInPage = await popup;
    await signInPage.getByLabel('Username').waitFor();
    const picked = await answerIdAt(card, 0);
    await signInAs(signInPage, 'sam');
    const vote = card.locator('[part="button"][aria-disabled="false"]', { hasText: voteLabel });
    await vote.waitFor();
    expect(await checkedIndex(card)).toBe(0);
    await voteAndCheckRecorded(held, 'sam', picked, 'details-held-2-voted');
    await phone.context.close();
  }, 60_000);
});
