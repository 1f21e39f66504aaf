// A real <fan-poll> card on the demo page, with the built extension on a connected site: the card signs in through
// the extension on the fan's click, says that votes are confirmed in the extension, proposes the fan's pick, and
// shows the answer the fan confirmed in the extension's window, which is the one the platform recorded.
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extensionId } from '../../src/local-defaults.ts';
import type { Poll } from '../../src/platform/types.ts';
import { findFanByUsername } from '../../src/sandbox/data/fans.ts';
import { apiRequest, fanToken } from '../../src/sandbox/test-kit.ts';
import {
  completeConsent,
  configureExtension,
  confirmationWindow,
  connectSite,
  launchExtension,
  openPopupFor,
  readProposal,
  screenshotPath,
  type LoadedExtension,
} from './extension-harness.ts';
import { pageAtStoreSize, pngSize, saveStoreScreenshot, storeSize } from './store-screenshots.ts';
import { ensureWidgetBuilt, startWidgetStack, type WidgetStack } from './widget-stack.ts';

let extension: LoadedExtension;
let stack: WidgetStack;
let page: Page;

/** The first card on the demo page whose poll is open and of a club sam holds tokens of. */
async function openCardOfSam(onPage = page): Promise<{ card: Locator; poll: Poll }> {
  const holdings = findFanByUsername('sam')?.holdings ?? {};
  for (const card of await onPage.locator('fan-poll').all()) {
    const pollId = await card.getAttribute('poll-id');
    const response = await apiRequest(
      stack.sandbox.sandbox,
      `/polls/1.0.8/user/poll/${pollId}`,
      fanToken(stack.sandbox.sandbox, 'sam'),
    );
    const poll = ((await response.json()) as { data: Poll }).data;
    const open = Date.parse(poll.openAt ?? '') <= Date.now() && Date.now() < Date.parse(poll.closeAt ?? '');
    if (open && (holdings[poll.partnerId] ?? 0) > 0 && poll.userVote !== true) return { card, poll };
  }
  throw new Error('The demo page shows no open poll sam can vote in.');
}

beforeAll(async () => {
  ensureWidgetBuilt();
  extension = await launchExtension();
  stack = await startWidgetStack({ simulate: false });
  await configureExtension(extension, stack);
  page = await extension.context.newPage();
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(stack.demo.url);
  await connectSite(extension, page);
});

afterAll(async () => {
  await extension.close();
  await stack.close();
});

/**
 * Runs in the page before any of its scripts: for the first seconds (while the cards do their handshake) the page is
 * flooded with answers forged as the extension's, each with a random request id, as fast as timers allow.
 */
function floodWithForgedAnswers(): void {
  if (window !== window.top) return;
  const until = Date.now() + 2500;
  const spam = (): void => {
    for (let n = 0; n < 2000; n += 1) {
      window.postMessage(
        {
          source: 'fan-polls-extension',
          version: 2,
          requestId: crypto.randomUUID(),
          outcome: { ok: true, result: { type: 'hello', version: 2 } },
        },
        '*',
      );
    }
    if (Date.now() < until) setTimeout(spam, 0);
  };
  spam();
}

/** The card's vote with the extension: the fan confirms `answer` in the extension's window; resolves once shown. */
async function voteThroughExtension(card: Locator, answer: string, screenshot: string): Promise<void> {
  const window = confirmationWindow(extension.context);
  await card.getByRole('button', { name: 'Vote', exact: true }).click();
  const confirm = await window;
  await readProposal(confirm);
  await confirm.getByRole('radio', { name: answer }).check();
  await confirm.locator('[data-testid="confirm"][aria-disabled="false"]').waitFor();
  await confirm
    .getByTestId('confirm')
    .click()
    .catch(() => undefined);
  await card.locator('[part="actions"]').getByText(`You voted for ${answer}`).waitFor();
  await card.screenshot({ path: screenshotPath(screenshot) });
}

describe('a card on a connected site, with the extension', () => {
  it('signs in through the extension, proposes the fan’s pick and shows the answer the platform recorded', async () => {
    expect(extension.id).toBe(extensionId);
    const { card, poll } = await openCardOfSam();
    await card.getByRole('button', { name: 'Sign in to vote' }).click();
    await completeConsent(extension.context, 'allow', 'sam');
    const vote = card.getByRole('button', { name: 'Vote', exact: true });
    await vote.waitFor();
    await card.getByText('You confirm votes in Fan Polls.').waitFor();
    const [first, second] = poll.answers;
    await card.getByRole('radio', { name: new RegExp(first!.answer) }).check();
    const window = confirmationWindow(extension.context);
    await vote.click();
    const confirm = await window;
    const shown = await readProposal(confirm);
    expect(shown).toMatchObject({
      question: poll.question,
      preselected: first!.answer,
      club: poll.partnerName,
    });
    await card.getByRole('button', { name: 'Confirm in Fan Polls…' }).waitFor();
    await card.screenshot({ path: screenshotPath('extension-card-waiting-for-confirmation') });
    // The fan changes their mind in the extension's window: that answer is cast, and the card follows it.
    await confirm.getByRole('radio', { name: second!.answer }).check();
    await confirm.locator('[data-testid="confirm"][aria-disabled="false"]').waitFor();
    // For the store: the window at the size the extension opens it, over the page.
    await confirm.setViewportSize({ width: 440, height: 620 });
    const confirming = { page: await pageAtStoreSize(page, card), window: await confirm.screenshot() };
    await confirm.locator('[data-testid="confirm"][aria-disabled="false"]').waitFor();
    await confirm
      .getByTestId('confirm')
      .click()
      .catch(() => undefined);
    await card.locator('[part="actions"]').getByText(`You voted for ${second!.answer}`).waitFor();
    await card.screenshot({ path: screenshotPath('extension-card-voted') });
    const recorded = await apiRequest(
      stack.sandbox.sandbox,
      `/polls/1.0.8/user/poll/${poll.id}`,
      fanToken(stack.sandbox.sandbox, 'sam'),
    );
    const answers = ((await recorded.json()) as { data: Poll }).data.answers;
    expect(answers.find((answer) => typeof answer.voteStatus === 'string')?.id).toBe(second!.id);

    // The store's screenshots: the vote confirmed in the extension's window, then the card and the popup after it.
    const popup = await openPopupFor(extension, page);
    await popup.getByTestId('poll-row').filter({ hasText: poll.question }).first().waitFor();
    const voted = { page: await pageAtStoreSize(page, card), window: await popup.screenshot() };
    await popup.close();
    const shots = [
      await saveStoreScreenshot(
        extension.context,
        confirming.page,
        confirming.window,
        'centre',
        '1-confirm-vote.png',
      ),
      await saveStoreScreenshot(
        extension.context,
        voted.page,
        voted.window,
        'toolbar',
        '2-card-and-popup.png',
      ),
    ];
    for (const shot of shots) expect(pngSize(shot)).toEqual(storeSize);
  });

  it('still finds the extension and votes while the page is flooded with forged answers', async () => {
    // The demo shows one open poll sam can vote in: the sandbox forgets his vote of the first test.
    const samId = findFanByUsername('sam')!.userId;
    for (const stored of stack.sandbox.sandbox.state.polls.all()) {
      const index = stored.votes.findIndex((vote) => vote.userId === samId);
      if (index >= 0 && Date.now() - stored.votes[index]!.castAt < 120_000) stored.votes.splice(index, 1);
    }
    const flooded = await extension.context.newPage();
    await flooded.setViewportSize({ width: 1280, height: 900 });
    await flooded.addInitScript(floodWithForgedAnswers);
    // A busy machine: the page's main thread runs six times slower while the flood lasts.
    const devtools = await extension.context.newCDPSession(flooded);
    await devtools.send('Emulation.setCPUThrottlingRate', { rate: 6 });
    await flooded.goto(stack.demo.url);
    const { card, poll } = await openCardOfSam(flooded);
    // The handshake answered despite the flood: the card votes through the extension, not "Sign in to vote".
    await card.getByText('You confirm votes in Fan Polls.').waitFor({ timeout: 30_000 });
    await devtools.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    const [first] = poll.answers;
    await card.getByRole('radio', { name: new RegExp(first!.answer) }).check();
    await voteThroughExtension(card, first!.answer, 'extension-card-voted-under-flood');
    const recorded = await apiRequest(
      stack.sandbox.sandbox,
      `/polls/1.0.8/user/poll/${poll.id}`,
      fanToken(stack.sandbox.sandbox, 'sam'),
    );
    const answers = ((await recorded.json()) as { data: Poll }).data.answers;
    expect(answers.find((answer) => typeof answer.voteStatus === 'string')?.id).toBe(first!.id);
    await flooded.close();
  });
});
