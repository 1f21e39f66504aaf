// The open card under a phone's thumb: in a 390 x 844 touch session (Chromium's phone emulation), every answer and
// every button the card shows is at least 44 x 44 CSS px, signed out and signed in, on the README's recommended card
// (drawn by the proxy, then hydrated) and on the one-line script tag's card; a long poll's "Show all" too. A tap on the
// card never waits for a double-tap zoom (`touch-action: manipulation`). Each state is saved under
// `dist/screenshots/tap-targets/`.
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Poll } from '../../src/platform/types.ts';
import { screenshotPath } from '../support/screenshots.ts';
import { recordFanPosts, useFanStack, type FanPage } from './widget-fan-page.ts';

const fans = useFanStack();
const { openSignIn, signInAs } = fans;

/** The smallest tap target a thumb is given (WCAG 2.5.5, Apple's and Material's guidelines): CSS px each way. */
const minimumTarget = 44;

/** Each answer and each button the card shows, with its size in CSS px, and the card's `touch-action`. */
function measureTargets(card: Element) {
  const root = card.shadowRoot!;
  const shown = (element: Element) =>
    element.getClientRects().length > 0 && !element.closest('.visually-hidden');
  const targets = [...root.querySelectorAll('[part~="answer"], button')].filter(shown).map((element) => {
    element.scrollIntoView({ block: 'center' });
    const box = element.getBoundingClientRect();
    const centre = root.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
    return {
      target: `${element.localName}[part="${element.getAttribute('part') ?? ''}"] ${element.textContent.replace(/\s+/g, ' ').trim()}`,
      width: Math.round(box.width * 100) / 100,
      height: Math.round(box.height * 100) / 100,
      // A tap at its centre reaches it (nothing of the card lies over it).
      reached: centre !== null && element.contains(centre),
    };
  });
  return {
    targets,
    touchAction: getComputedStyle(root.querySelector('[part="card"]')!).touchAction,
  };
}

type Measured = ReturnType<typeof measureTargets>;

function expectThumbSized(measured: Measured, state: string): void {
  expect(measured.touchAction, state).toBe('manipulation');
  expect(measured.targets.length, state).toBeGreaterThan(0);
  for (const target of measured.targets) {
    expect.soft(target.width, `${state}: ${target.target}`).toBeGreaterThanOrEqual(minimumTarget);
    expect.soft(target.height, `${state}: ${target.target}`).toBeGreaterThanOrEqual(minimumTarget);
    expect.soft(target.reached, `${state}: ${target.target} reached at its centre`).toBe(true);
  }
}

/** A phone (390 x 844, touch, mobile viewport) on the demo page's `query`, its first card live and signed out. */
async function openOnPhone(query: string, prepare?: (page: Page) => Promise<unknown>): Promise<FanPage> {
  const context = await fans.browser.newContext({
    isMobile: true,
    hasTouch: true,
    viewport: { width: 390, height: 844 },
  });
  const page = await context.newPage();
  await prepare?.(page);
  const posts = recordFanPosts(page);
  await page.goto(fans.stack.demo.url + query);
  const card = page.locator('fan-poll').first();
  await card.locator('[part="button"]:not([aria-disabled="true"])', { hasText: 'Sign in to vote' }).waitFor();
  return { context, page, card, ...posts };
}

async function shot(card: Locator, name: string): Promise<void> {
  await card.scrollIntoViewIfNeeded();
  await card.screenshot({ path: screenshotPath(`tap-targets/${name}.png`) });
}

describe('the open card’s tap targets on a 390 px phone (Chromium, touch)', () => {
  it.each([
    ['the recommended snippet’s card, drawn by the proxy', 'drawn', ''],
    ['the one-line script tag’s card', 'script-tag', '?embed=script-tag'],
  ])(
    '%s: every answer and button is at least 44 x 44 px, signed out and signed in',
    async (_embed, name, query) => {
      const fan = await openOnPhone(query);
      const signedOut = await fan.card.evaluate(measureTargets);
      expect(signedOut.targets.map((target) => target.target)).toContain(
        'button[part="button"] Sign in to vote',
      );
      expectThumbSized(signedOut, `${name}, signed out`);
      await shot(fan.card, `${name}-signed-out`);

      await signInAs(await openSignIn(fan), 'sam');
      await fan.card.locator('[part="button"][aria-disabled="false"]', { hasText: /^\s*Vote\s*$/ }).waitFor();
      await fan.card.locator('[part="account"] button').first().waitFor();
      const signedIn = await fan.card.evaluate(measureTargets);
      // The account line's "Switch account" and "Sign out" are buttons of the open card too.
      expect(
        signedIn.targets.filter((target) => target.target.startsWith('button')).length,
      ).toBeGreaterThanOrEqual(3);
      expectThumbSized(signedIn, `${name}, signed in`);
      await shot(fan.card, `${name}-signed-in`);
      expect(fan.votePosts).toEqual([]);
      await fan.context.close();
    },
  );

  it('a long poll’s answers and its "Show all" button, before and after it is tapped', async () => {
    // The sandbox's open polls have at most five answers: the page's reads of its polls get three more answers (copies
    // of the last one), and its live stream is refused, so that every copy the card shows is a read.
    const fan = await openOnPhone('?embed=script-tag', async (page) => {
      await page.route(/\/api\/polls\/stream/, (route) => route.abort());
      await page.route(/\/api\/polls\?/, async (route) => {
        const answer = await route.fetch();

        // One poll's read answers a poll, several polls' a list.
        const body = (await answer.json()) as { data: Poll | Poll[] };
        const longer = (Array.isArray(body.data) ? body.data : [body.data]).map((poll) => ({
          ...poll,
          answers: [
            ...poll.answers,
            ...[1, 2, 3].map((extra) => ({
              ...poll.answers.at(-1)!,
              id: `${poll.answers.at(-1)!.id.slice(0, -2)}f${extra}`,
              answer: `Another answer ${extra}`,
            })),
          ],
        }));
        // The answer's own headers but its encoding and length: the body is new, and plain.
        const headers = Object.fromEntries(
          Object.entries(answer.headers()).filter(([name]) => !/^content-(encoding|length)$/i.test(name)),
        );
        const data = Array.isArray(body.data) ? longer : longer[0];
        await route.fulfill({ status: answer.status(), headers, json: { ...body, data } });
      });
    });
    const showAll = fan.card.locator('[part="show-all"]');
    await showAll.waitFor();
    const collapsed = await fan.card.evaluate(measureTargets);
    expect(collapsed.targets.map((target) => target.target)).toContainEqual(
      expect.stringMatching(/^button\[part="show-all"\] Show all/),
    );
    expectThumbSized(collapsed, 'long poll, collapsed');
    await shot(fan.card, 'long-poll-collapsed');
    await showAll.tap();
    await showAll.waitFor({ state: 'detached' });
    const expanded = await fan.card.evaluate(measureTargets);
    expect(expanded.targets.filter((target) => target.target.startsWith('label')).length).toBeGreaterThan(5);
    expectThumbSized(expanded, 'long poll, every answer');
    await shot(fan.card, 'long-poll-expanded');
    await fan.context.close();
  });
});
