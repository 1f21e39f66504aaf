// The demo page as a fan without the extension sees it, and the proxy's sign-in popup, for the widget's browser tests.
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { proxyRoutes } from '../../src/contracts/proxy-contract.ts';
import { ensureWidgetBuilt, launchChromium, startWidgetStack, type WidgetStack } from './widget-stack.ts';

export interface FanPage {
  context: BrowserContext;
  page: Page;
  card: Locator;
  /** POSTs the page sent to the proxy's vote route. */
  votePosts: string[];
  /** POSTs the page sent to the proxy's session handoff route. */
  handoffPosts: string[];
}

/** Records the POSTs `page` sends to the proxy's vote and session-handoff routes, as they leave. */
export function recordFanPosts(page: Page): Pick<FanPage, 'votePosts' | 'handoffPosts'> {
  const votePosts: string[] = [];
  const handoffPosts: string[] = [];
  page.on('request', (request) => {
    if (request.method() !== 'POST') return;
    const { pathname } = new URL(request.url());
    if (/\/api\/user\/polls\/[^/]+\/vote$/.test(pathname)) votePosts.push(request.url());
    if (pathname === proxyRoutes.sessionHandoff) handoffPosts.push(request.url());
  });
  return { votePosts, handoffPosts };
}

/**
 * Ends a quiet period without a clock: each of `cards` has finished the update that what came before caused, and a
 * request the page sends after that has been seen here. A request the cards started before it was recorded first.
 */
export async function afterCardsSettle(page: Page, ...cards: readonly Locator[]): Promise<void> {
  for (const card of cards)
    await card.evaluate(
      (element) => (element as unknown as { updateComplete: Promise<unknown> }).updateComplete,
    );
  const marker = `${new URL(page.url()).origin}/?quiet-until=${crypto.randomUUID()}`;
  await Promise.all([
    page.waitForRequest(marker),
    page.evaluate((url) => fetch(url).then((answer) => answer.text()), marker),
  ]);
}

/**
 * A test file's demo stack, with no simulated fans (nobody else votes as sam while it runs), and one Chromium: started
 * in the file's `beforeAll`, stopped in its `afterAll`, with the fan page helpers. `stack` and `browser` are the
 * running ones (read inside tests and hooks).
 */
export function useFanStack() {
  let running: { stack: WidgetStack; browser: Browser } | undefined;
  beforeAll(async () => {
    ensureWidgetBuilt();
    const stack = await startWidgetStack({ simulate: false });
    running = { stack, browser: await launchChromium() };
  });
  afterAll(async () => {
    await running?.browser.close();
    await running?.stack.close();
    running = undefined;
  });
  const current = () => {
    if (running === undefined) throw new Error('useFanStack: read outside the file’s tests and hooks');
    return running;
  };
  return {
    get stack(): WidgetStack {
      return current().stack;
    },
    get browser(): Browser {
      return current().browser;
    },
    ...fanPages(current),
  };
}

/** The helpers, for the browser and stack a test file starts in its `beforeAll` (read when each is called). */
export function fanPages(current: () => { browser: Browser; stack: WidgetStack }) {
  /**
   * The demo page (`query`: another embed of it, such as `/?embed=script-tag`) in a fresh profile (no session cookie),
   * its first card ready for a signed-out fan.
   */
  async function openAsNewFan(query = ''): Promise<FanPage> {
    const { browser, stack } = current();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const { votePosts, handoffPosts } = recordFanPosts(page);
    await page.goto(stack.demo.url + query);
    const card = page.locator('fan-poll').first();
    // The voting part has loaded and found no session (no extension): the fan is asked to sign in.
    await card
      .locator('[part="button"]:not([aria-disabled="true"])', { hasText: 'Sign in to vote' })
      .waitFor();
    return { context, page, card, votePosts, handoffPosts };
  }

  /** Clicks "Sign in to vote" and returns the proxy's sign-in popup, on the platform's consent page. */
  async function openSignIn({ context, card }: FanPage): Promise<Page> {
    const [popup] = await Promise.all([
      context.waitForEvent('page'),
      card.getByRole('button', { name: 'Sign in to vote' }).click(),
    ]);
    await popup.getByLabel('Username').waitFor();
    return popup;
  }

  /** Signs `username` in on the consent page and waits for the popup to close. */
  async function signInAs(popup: Page, username: string): Promise<void> {
    await popup.getByLabel('Username').fill(username);
    await popup.getByLabel('Password').fill('fan-polls');
    await Promise.all([
      popup.waitForEvent('close'),
      popup.getByRole('button', { name: 'Sign in and allow' }).click(),
    ]);
  }

  /**
   * The fan picks the card's answer number `index`, signs in as `username` through the popup and votes; resolves with
   * the answer's id and text once the card says the vote is in.
   */
  async function signInAndVote(
    fan: FanPage,
    index: number,
    username: string,
  ): Promise<{ answerId: string; answerText: string }> {
    const answer = fan.card.locator('[part~="answer"]').nth(index);
    const answerText = await answerTextOf(answer);
    const answerId = await answer.locator('input').evaluate((input) => (input as HTMLInputElement).value);
    await answer.locator('input').check();
    await signInAs(await openSignIn(fan), username);
    await fan.card.getByRole('button', { name: 'Vote', exact: true }).click();
    await fan.card
      .locator('[part="actions"]')
      .getByText(`You voted for ${answerText}`)
      .waitFor({ timeout: 15_000 });
    return { answerId, answerText };
  }

  return { openAsNewFan, openSignIn, signInAs, signInAndVote };
}

/** An answer's own text: its label's text nodes (a leading answer also says so, visually hidden). */
export async function answerTextOf(answer: Locator): Promise<string> {
  const text = await answer
    .locator('span')
    .first()
    .evaluate((span) =>
      [...span.childNodes]
        .filter((node) => node.nodeType === Node.TEXT_NODE)
        .map((node) => node.textContent)
        .join(''),
    );
  return text.trim();
}
