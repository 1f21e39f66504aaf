// The fan's journey, one definition for every engine: the demo page's card, banner and list; sign-in from the card's
// popup; a vote the platform records once; live results; sign-out; then sign-in again from the banner (an iframe of
// the proxy's origin), whose vote the platform records once too, the page's card following it, and sign-out there.
// Each state is saved as a screenshot.
import { expect } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/sandbox.ts';
import { drawnCardMark } from '../../../widget/delivery/drawn-cards.ts';
import { waitUntil } from '../../support/wait-until.ts';
import { screenshotPath } from '../../support/screenshots.ts';
import { cardTargets, readCard } from './card-reading.ts';
import { type FanBrowser, type FanWindow } from './fan-browser.ts';
import { signInAndVote, type CardOutcome, type SignInAndVote } from './sign-in-and-vote.ts';
import { assertNothingReadable, recordPageMessages } from './nothing-readable.ts';
import { readPageProblems, recordPageProblems } from './page-problems.ts';

export interface JourneyStack {
  readonly sandbox: Sandbox;
  /** The demo match page, on the proxy's site or another, its banner on the proxy's origin. */
  readonly pageUrl: string;
}

/** What the fan got from the page's card and from the banner. */
export interface JourneyOutcome {
  readonly card: CardOutcome;
  readonly banner: CardOutcome;
  /** The page's cards that painted from the proxy's drawing (the recommended snippet's), by their timeline mark. */
  readonly drawnCards: number;
  /** Every error the engine or the page and its banner reported over the journey (`FanBrowser.consoleErrors`). */
  readonly errors: readonly string[];
}

const card = cardTargets('fan-poll');
const bannerCard = cardTargets('fan-poll');
const bannerFrame = { chain: 'fan-poll-frame iframe' };

export async function runFanJourney(
  browser: FanBrowser,
  stack: JourneyStack,
  name: string,
): Promise<JourneyOutcome> {
  const page = await browser.open(stack.pageUrl);
  await page.evaluate(recordPageMessages, undefined);
  await page.evaluate(recordPageProblems, undefined);
  const shooter = (part: string) => (state: string) =>
    page.screenshot(screenshotPath(`journey-${name}-${part}-${state}.png`));
  await waitUntil(() => page.has(card.signIn), 'the card to offer sign-in');
  const drawnCards = await page.evaluate(
    (mark) => performance.getEntriesByName(mark, 'mark').length,
    drawnCardMark,
  );
  const banner = await page.frame(bannerFrame);
  await banner.evaluate(recordPageProblems, undefined);
  await assertBannerAndList(page, banner);
  await shooter('card')('signed-out');

  const shot = shooter('card');
  const fromCard = await signInAndVote({
    browser,
    sandbox: stack.sandbox,
    window: page,
    targets: card,
    shot,
  });
  if (fromCard.kind === 'voted') {
    // Whichever way the card holds the session (its cookie, its session frame), the page's scripts read none of it.
    await assertNothingReadable(page);
    await assertLiveResults(page, stack.sandbox, fromCard.pollId);
    await page.click(card.signOut);
    await waitUntil(() => page.has(card.signIn), 'the card to be signed out');
    await shot('signed-out-again');
  }
  const fromBanner = await bannerJourney(
    { browser, sandbox: stack.sandbox, window: banner, targets: bannerCard, shot: shooter('banner') },
    page,
    fromCard.kind === 'voted',
  );
  const errors = [
    ...browser.consoleErrors(),
    ...(await page.evaluate(readPageProblems, undefined)),
    ...(await banner.evaluate(readPageProblems, undefined)).map((problem) => `banner: ${problem}`),
  ];
  return { card: fromCard, banner: fromBanner, drawnCards, errors };
}

/**
 * Sign-in from the banner: its vote recorded once; the page's card, where it could sign in itself, follows (signed
 * in again, its vote known); sign-out in the banner signs the card out too.
 */
async function bannerJourney(
  step: SignInAndVote,
  page: FanWindow,
  cardSignsIn: boolean,
): Promise<CardOutcome> {
  const { window: banner, shot } = step;
  await waitUntil(() => banner.has(bannerCard.signIn), 'the banner to offer sign-in');
  const outcome = await signInAndVote(step);
  if (outcome.kind !== 'voted') return outcome;
  if (cardSignsIn)
    await waitUntil(
      async () => (await page.evaluate(readCard, card.card)).note.includes('You voted for'),
      'the card to follow the banner’s sign-in and know its vote',
    );
  await shot('card-follows');
  await banner.click(bannerCard.signOut);
  await waitUntil(() => banner.has(bannerCard.signIn), 'the banner to be signed out');
  if (cardSignsIn) await waitUntil(() => page.has(card.signIn), 'the card to follow the banner’s sign-out');
  await shot('signed-out-again');
  return outcome;
}

/** The banner's frame shows a poll's question and the list shows cards. */
async function assertBannerAndList(page: FanWindow, banner: FanWindow): Promise<void> {
  await waitUntil(
    async () => (await banner.evaluate(readCard, bannerCard.card)).answerIds.length > 0,
    'the banner to show its poll',
  );
  await waitUntil(() => page.has({ chain: 'fan-poll-list >> fan-poll' }), 'the list to show its cards');
  // The banner takes its card's height once it has data: the page below it moves then, not under a click.
  await waitUntil(
    () =>
      page.evaluate(
        (chain) => document.querySelector<HTMLElement>(chain)?.style.height.endsWith('px') ?? false,
        bannerFrame.chain,
      ),
    'the banner to size itself to its card',
  );
}

/**
 * Votes arriving at the platform show on the card without a reload, in its numbers and its bars. The votes go to the
 * answer the card shows as least chosen, so the platform's new results differ from whatever the card shows now (a
 * copy the proxy still holds from an earlier journey included), and the card must come to show that answer leading.
 */
async function assertLiveResults(page: FanWindow, sandbox: Sandbox, pollId: string) {
  const before = await page.evaluate(readCard, card.card);
  const poll = sandbox.polls.find(pollId);
  if (poll === undefined) throw new Error(`No poll ${pollId} at the sandbox`);
  const least = before.shares.reduce(
    (low, share, index) => (share.text < (before.shares[low]?.text ?? 0) ? index : low),
    0,
  );
  for (let fan = 0; fan < 50; fan += 1)
    sandbox.polls.recordSimulatedVote(poll, before.answerIds[least] ?? '', `journey-${String(fan)}`, 1000);
  await waitUntil(
    async () => {
      const { shares } = await page.evaluate(readCard, card.card);
      const most = Math.max(...shares.map((share) => share.text));
      return shares[least]?.text === most && most > (before.shares[least]?.text ?? 0);
    },
    'the card to show the new votes',
    // An open poll's 5 s tick plus the proxy's 5 s cache, and a backed-off tick when a read timed out on a busy machine.
    30_000,
  );
  // Each bar stands where its number says (the numbers are rounded for display).
  const after = await page.evaluate(readCard, card.card);
  for (const share of after.shares) expect(Math.abs(share.bar - share.text)).toBeLessThan(1);
}
