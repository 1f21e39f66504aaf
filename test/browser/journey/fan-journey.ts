// The fan's journey, one definition for every engine: the demo page's card, banner and list; sign-in from the card's
// popup; a vote the platform records once; live results; sign-out. Each state is saved as a screenshot.
import type { Sandbox } from '../../../src/sandbox/sandbox.ts';
import { waitUntil } from '../../support/wait-until.ts';
import { recordedAnswerIds } from '../../support/recorded-vote.ts';
import { screenshotPath } from '../../support/screenshots.ts';
import { type FanBrowser, type FanWindow, type Target } from './fan-browser.ts';

export interface JourneyStack {
  readonly sandbox: Sandbox;
  /** The demo match page, on the proxy's site or another. */
  readonly pageUrl: string;
}

/** How the journey ended: the vote recorded, or the sentence the card said instead. */
export type JourneyOutcome =
  | { readonly kind: 'voted'; readonly pollId: string; readonly answerId: string }
  | { readonly kind: 'refused'; readonly message: string };

const card = 'fan-poll';
const signInButton: Target = { chain: `${card} >> [part="button"]`, hasText: 'Sign in to vote' };
const voteButton: Target = { chain: `${card} >> [part="actions"] button`, hasText: 'Vote' };

/** What the first card shows right now: its poll, its actions' texts and its status line. */
function readCard(chain: string) {
  const host = document.querySelector(chain);
  const root = host?.shadowRoot;
  const texts = (selector: string) =>
    [...(root?.querySelectorAll(selector) ?? [])].map((node) => node.textContent.replace(/\s+/g, ' ').trim());
  return {
    pollId: host?.getAttribute('poll-id') ?? '',
    answerIds: [...(root?.querySelectorAll('[part~="answer"] input') ?? [])].map(
      (input) => (input as HTMLInputElement).value,
    ),
    buttons: texts('[part="actions"] button, [part="button"]'),
    status: texts('[part="status"]').join(' '),
    note: texts('[part="actions"] .note').join(' '),
    results: texts('[part~="answer"]').join(' | '),
  };
}

export async function runFanJourney(
  browser: FanBrowser,
  stack: JourneyStack,
  name: string,
): Promise<JourneyOutcome> {
  const shot = (state: string) => page.screenshot(screenshotPath(`journey-${name}-${state}.png`));
  const page = await browser.open(stack.pageUrl);
  await waitUntil(() => page.has(signInButton), 'the card to offer sign-in');
  await assertBannerAndList(page);
  await shot('1-signed-out');

  const before = await page.evaluate(readCard, card);
  const answerId = before.answerIds[1] ?? '';
  await page.click({ chain: `${card} >> [part~="answer"] input`, nth: 1 });
  const popup = await browser.popupFrom(() => page.click(signInButton));
  await waitUntil(() => popup.has({ chain: '#username' }), 'the consent page');
  await popup.fill({ chain: '#username' }, 'sam');
  await popup.fill({ chain: '#password' }, 'fan-polls');
  await popup.screenshot(screenshotPath(`journey-${name}-2-consent.png`));
  await popup.click({ chain: 'button.allow' });
  await waitUntil(() => popup.isClosed(), 'the sign-in popup to close', 20_000);

  const after = await waitUntil(async () => {
    const state = await page.evaluate(readCard, card);
    const signedIn = state.buttons.includes('Vote');
    return signedIn || state.status !== '' ? state : undefined;
  }, 'the card to be signed in or to say why not');
  await shot('3-after-sign-in');
  if (!after.buttons.includes('Vote')) return { kind: 'refused', message: after.status };

  await page.click(voteButton);
  await waitUntil(
    async () => (await page.evaluate(readCard, card)).note.includes('You voted for'),
    'the card to show the vote',
  );
  const recorded = await waitUntil(async () => {
    const ids = await recordedAnswerIds(stack.sandbox, before.pollId, 'sam');
    return ids.length > 0 ? ids : undefined;
  }, 'the platform to record the vote');
  if (recorded.join() !== answerId)
    throw new Error(`The platform recorded ${recorded.join()}, not ${answerId}`);
  await shot('4-voted');

  await assertLiveResults(page, stack.sandbox, before.pollId, before.answerIds[0] ?? '');
  await page.click({ chain: `${card} >> button`, hasText: 'Sign out' });
  await waitUntil(() => page.has(signInButton), 'the card to be signed out');
  await shot('5-signed-out-again');
  return { kind: 'voted', pollId: before.pollId, answerId };
}

/** The banner's frame shows a poll's question and the list shows cards. */
async function assertBannerAndList(page: FanWindow): Promise<void> {
  const banner = await page.frame({ chain: 'fan-poll-frame iframe' });
  await waitUntil(
    async () => (await banner.evaluate(readCard, 'fan-poll')).answerIds.length > 0,
    'the banner to show its poll',
  );
  await waitUntil(() => page.has({ chain: 'fan-poll-list >> fan-poll' }), 'the list to show its cards');
}

/** Votes arriving at the platform show on the card (its results change) without a reload. */
async function assertLiveResults(page: FanWindow, sandbox: Sandbox, pollId: string, answerId: string) {
  const shown = (await page.evaluate(readCard, card)).results;
  const poll = sandbox.polls.find(pollId);
  if (poll === undefined) throw new Error(`No poll ${pollId} at the sandbox`);
  for (let fan = 0; fan < 50; fan += 1)
    sandbox.polls.recordSimulatedVote(poll, answerId, `journey-${String(fan)}`, 1000);
  await waitUntil(
    async () => (await page.evaluate(readCard, card)).results !== shown,
    'the card to show the new votes',
    20_000,
  );
}
