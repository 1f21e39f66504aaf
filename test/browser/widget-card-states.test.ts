// The card's states as a fan sees them, in Chromium: a screenshot of every state at 375 and 1280 px, light
// and dark (`npm run screenshots` writes them to dist/screenshots/card-states/, linked from docs/embedding.md); axe on the
// demo page as a whole, a partner page with its own <main> and an iframe banner; the list's cards reached by Tab.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Frame, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Poll } from '../../src/platform/types.ts';
import { answerFixture } from '../../src/polls/poll-fixture.ts';
import { pollIn } from '../../widget/test-support/card-fixtures.ts';
import { screenshotPath } from '../support/screenshots.ts';
import { useFanStack } from './widget-fan-page.ts';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const fans = useFanStack();

/** One state of the card: the poll as the platform sends it, and what the fan's channel says. */
interface CardState {
  readonly name: string;
  readonly poll?: Poll;
  readonly error?: string;
  readonly signedIn?: boolean;
  readonly votedFor?: string;
  /** The card's own `theme`, when not the page's. */
  readonly theme?: 'light' | 'dark' | 'auto';
  /** The card's `results` setting, when not the default (`always`). */
  readonly results?: 'after-vote' | 'after-close';
}

const twelveAnswers = Array.from({ length: 12 }, (_, index) =>
  answerFixture({
    id: `a${index + 1}`,
    answer: `Player number ${index + 1}, for a moment that changed the whole second half`,
    totalVoteTokensUsed: 10 + index,
  }),
);
/** Counts that agree with the fixture's 30 and 10 tokens. */
const counted = { usedTokenCount: 40, statistics: { uniqueVoteCount: 7 } };
const tied = pollIn('disclosed').answers.map((answer) => ({ ...answer, totalVoteTokensUsed: 50 }));

const states: readonly CardState[] = [
  { name: 'upcoming', poll: pollIn('upcoming', counted) },
  { name: 'open-signed-out', poll: pollIn('open', counted) },
  { name: 'open-signed-in', poll: pollIn('open', counted), signedIn: true },
  { name: 'open-after-vote', poll: pollIn('open', counted), results: 'after-vote' },
  {
    name: 'open-after-close-signed-in',
    poll: pollIn('open', counted),
    signedIn: true,
    results: 'after-close',
  },
  { name: 'open-voted', poll: pollIn('open', { ...counted, isBound: true }), signedIn: true, votedFor: 'a2' },
  {
    name: 'open-after-vote-voted',
    poll: pollIn('open', counted),
    signedIn: true,
    votedFor: 'a1',
    results: 'after-vote',
  },
  { name: 'closed-after-close', poll: pollIn('closed', counted), results: 'after-close' },
  { name: 'closed-awaiting-results', poll: pollIn('closed', counted) },
  {
    name: 'disclosed-winner',
    poll: pollIn('disclosed', { ...counted, isQuorumReached: true, currentQuorumPercentage: '0.4' }),
  },
  { name: 'disclosed-tie', poll: pollIn('disclosed', { ...counted, usedTokenCount: 100, answers: tied }) },
  { name: 'cancelled', poll: pollIn('open', { status: 'cancelled' }) },
  { name: 'unknown-status', poll: pollIn('open', { status: 'suspended' }) },
  { name: 'long-poll', poll: pollIn('open', { answers: twelveAnswers }) },
  { name: 'theme-auto', poll: pollIn('open', counted), theme: 'auto' },
  { name: 'theme-light', poll: pollIn('open', counted), theme: 'light' },
  { name: 'theme-dark', poll: pollIn('open', counted), theme: 'dark' },
  { name: 'not-found', error: 'not_found' },
  { name: 'load-failed', error: 'network' },
];

/** The demo page emptied and filled with one card per state, each with a store and a channel that give that state. */
async function openStatesPage(width: number, theme: 'light' | 'dark'): Promise<Page> {
  // bypassCSP: the test styles its own page; the cards themselves need no exception.
  const page = await fans.browser.newPage({
    viewport: { width, height: 900 },
    bypassCSP: true,
    colorScheme: theme,
  });
  await page.goto(fans.stack.demo.url);
  await page.locator('fan-poll [part="question"]').first().waitFor();
  await page.evaluate(
    ({ states, theme }) => {
      document.body.replaceChildren();
      const style = document.createElement('style');
      style.textContent = `body { margin: 0; padding: 16px; background: ${theme === 'dark' ? '#0b0f17' : '#f4f5f7'};
        color: ${theme === 'dark' ? '#eef1f6' : '#14171f'}; font-family: system-ui; }
        main { display: grid; gap: 16px; grid-template-columns: repeat(auto-fill, minmax(340px, 1fr)); }
        h2 { font-size: 13px; margin: 0 0 6px; }`;
      document.head.append(style);
      const main = document.createElement('main');
      for (const state of states) {
        const section = document.createElement('section');
        section.id = state.name;
        const title = document.createElement('h2');
        title.textContent = state.name;
        const card = document.createElement('fan-poll');
        card.setAttribute('poll-id', state.poll?.id ?? 'missing-poll');
        card.setAttribute('theme', state.theme ?? theme);
        card.setAttribute('eager', '');
        if (state.results) card.setAttribute('results', state.results);
        const ready = state.poll
          ? { status: 'ready', poll: state.poll, fetchedAt: Date.now() }
          : { status: 'error', error: { code: state.error, message: state.error } };
        Object.assign(card, {
          store: {
            subscribe: (_id: string, listener: (value: unknown) => void) => {
              listener(ready);
              return () => undefined;
            },
            refresh: () => undefined,
            dispose: () => undefined,
          },
          channel: {
            via: 'popup',
            isSignedIn: () => Promise.resolve(state.signedIn === true),
            signIn: () => Promise.resolve(true),
            fanView: () =>
              Promise.resolve({
                userVote: state.votedFor !== undefined,
                answers: state.votedFor ? [{ id: state.votedFor, voteStatus: 'accepted' }] : [],
              }),
            vote: (_pollId: string, answerId: string) => Promise.resolve(answerId),
          },
        });
        section.append(title, card);
        main.append(section);
      }
      document.body.append(main);
    },
    { states, theme },
  );
  await page.locator('#load-failed fan-poll [part="button"]').waitFor();
  await page.locator('#open-voted fan-poll [data-chosen]').waitFor();
  return page;
}

describe('the card’s states (Chromium)', () => {
  for (const width of [375, 1280])
    for (const theme of ['light', 'dark'] as const)
      it(
        `shows every state at ${width} px, ${theme}, and saves a screenshot of each`,
        { timeout: 60_000 },
        async () => {
          const page = await openStatesPage(width, theme);
          for (const state of states) {
            const card = page.locator(`#${state.name} fan-poll`);
            await card.screenshot({
              path: screenshotPath(`card-states/${state.name}-${width}-${theme}.png`),
            });
          }
          await page.screenshot({
            path: screenshotPath(`card-states/all-${width}-${theme}.png`),
            fullPage: true,
          });
          // A card follows the page's colour scheme with theme="auto" only; light and dark stay what they say.
          const background = (name: string) =>
            page
              .locator(`#${name} fan-poll`)
              .evaluate(
                (card) => getComputedStyle(card.shadowRoot!.querySelector('[part="card"]')!).backgroundColor,
              );
          expect(await background('theme-auto')).toBe(
            await background(theme === 'dark' ? 'theme-dark' : 'theme-light'),
          );
          expect(await background('theme-light')).toBe('rgb(255, 255, 255)');
          expect(await background('theme-dark')).toBe('rgb(21, 25, 35)');
          // Each state says what it is, in words a fan reads at a glance.
          const said = (name: string) =>
            page.locator(`#${name} fan-poll`).evaluate((card) => card.shadowRoot!.textContent);
          expect(await said('upcoming')).toMatch(/Opens in/);
          expect(await said('disclosed-tie')).toContain('Tie: Ada and Bea');
          expect(await said('cancelled')).toContain('This poll was cancelled');
          expect(await said('unknown-status')).toContain('Not open for votes (suspended)');
          expect(await said('long-poll')).toContain('Show all 12 answers');
          // results="always" (the default): an open poll's live shares for every visitor, no leader set apart;
          // after-vote / after-close: none before the fan's vote; the fan's vote reveals them in every setting.
          for (const name of ['open-signed-out', 'open-signed-in', 'theme-light'])
            expect(await said(name), name).toMatch(/75%[\s\S]*25%/);
          for (const name of ['open-after-vote', 'open-after-close-signed-in'])
            expect(await said(name), name).not.toMatch(/75%|25%/);
          expect(await said('open-voted')).toMatch(/75%[\s\S]*25%/);
          // As documented: with after-vote the fan's own vote reveals them; with after-close, the close does.
          expect(await said('open-after-vote-voted')).toMatch(/75%[\s\S]*25%/);
          expect(await said('closed-after-close')).toMatch(/75%[\s\S]*25%/);
          expect(await page.locator('#open-signed-out fan-poll [data-leading]').count()).toBe(0);
          // The phase pill stays on one line, beside the club, even at 375 px.
          const pill = await page
            .locator('#long-poll fan-poll')
            .evaluate(
              (card) => card.shadowRoot!.querySelector('[part="phase"]')!.getBoundingClientRect().height,
            );
          expect(pill).toBeLessThan(30);
          // The vote button of a long poll is within a phone's screen of the card's top.
          const reach = await page.locator('#long-poll fan-poll').evaluate((card) => {
            const button = card.shadowRoot!.querySelector('[part="button"]')!;
            return button.getBoundingClientRect().bottom - card.getBoundingClientRect().top;
          });
          expect(reach).toBeLessThan(800);
          await page.close();
        },
      );

  it('rounds the button and the phase pill with --fan-poll-radius', async () => {
    const page = await openStatesPage(1280, 'light');
    const radii = await page.locator('#open-signed-out fan-poll').evaluate((card) => {
      (card as HTMLElement).style.setProperty('--fan-poll-radius', '3px');
      const root = card.shadowRoot!;
      return ['[part="button"]', '[part="phase"]'].map(
        (selector) => getComputedStyle(root.querySelector(selector)!).borderTopLeftRadius,
      );
    });
    expect(radii).toEqual(['3px', '3px']);
    await page.close();
  });
});

describe('the demo page as a whole (Chromium)', () => {
  /** axe-core in the page and in its banner's frame, every rule. */
  async function axeViolations(page: Page): Promise<string[]> {
    for (const frame of page.frames()) await frame.addScriptTag({ content: axeSource });
    const result = await page.evaluate(async () => {
      const axe = (window as unknown as { axe: { run(): Promise<{ violations: { id: string }[] }> } }).axe;
      return axe.run();
    });
    return result.violations.map((violation) => violation.id);
  }

  it('has no axe-core violation: a partner page with its own <main>, an iframe banner, cards and a list', async () => {
    const page = await fans.browser.newPage({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
    await page.goto(fans.stack.demo.url);
    await page.frameLocator('fan-poll-frame iframe').locator('fan-poll [part="question"]').waitFor();
    await page.locator('fan-poll-list').scrollIntoViewIfNeeded();
    await page.locator('fan-poll-list fan-poll [part="question"]').first().waitFor();
    expect(await page.locator('main').count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: screenshotPath('card-states/demo-page-1280.png'), fullPage: true });
    await page.close();
  });

  it('lets a keyboard user reach every card of the list, in the order the list shows them', async () => {
    const page = await fans.browser.newPage({ viewport: { width: 1280, height: 500 } });
    await page.goto(fans.stack.demo.url);
    const list = page.locator('fan-poll-list');
    await list.locator('fan-poll').first().waitFor({ state: 'attached' });
    const ids = await list
      .locator('fan-poll')
      .evaluateAll((cards) => cards.map((card) => card.getAttribute('poll-id')));
    expect(ids.length).toBeGreaterThan(1);
    // Tab from the top of the page; note every list card focus enters, until the last one.
    const reached: string[] = [];
    await page.locator('body').focus();
    for (let presses = 0; presses < 200 && reached.length < ids.length; presses += 1) {
      await page.keyboard.press('Tab');
      const id = await focusedListCard(page.mainFrame());
      if (id && reached.at(-1) !== id) reached.push(id);
    }
    expect(reached).toEqual(ids);
    await page.close();
  });
});

/** The poll id of the list card that holds the focus (on its item, or inside the card), if any. */
function focusedListCard(frame: Frame): Promise<string | undefined> {
  return frame.evaluate(() => {
    const list = document.querySelector('fan-poll-list');
    if (document.activeElement !== list) return undefined;
    const active = list?.shadowRoot?.activeElement;
    const card = active?.tagName === 'FAN-POLL' ? active : active?.querySelector('fan-poll');
    return card?.getAttribute('poll-id') ?? undefined;
  });
}
