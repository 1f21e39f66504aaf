// A vote proposal belongs to one fan's session, one site and one tab, until its poll closes. With the built extension
// in Chromium, a signed-in fan and a connected partner page: a confirmation window left open across a navigation, a
// closed tab, the poll's close, a disconnected site, sign-out and another account is closed by the extension at once,
// the page (while it is there) is told `vote_cancelled`, and nothing is cast, as the platform recorded it.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Poll } from '../../src/platform/types.ts';
import { findFanByUsername } from '../../src/sandbox/data/fans.ts';
import {
  armClick,
  busiestClub,
  clubListScript,
  votablePollsOf,
  bridgePage,
  clickedOutcome,
  completeConsent,
  askWithFanClick,
  configureExtension,
  confirmationWindow,
  connectSite,
  launchExtension,
  openPopupFor,
  pollsOfFan,
  readProposal,
  screenshotPath,
  startStack,
  type LoadedExtension,
} from './extension-harness.ts';
import { servePage, type PageServer } from '../support/page-server.ts';
import type { SandboxAndProxy } from '../support/stack.ts';

/** The partner page shows the list of one club's polls (`?club=<partner id>`): the site is connected for that club. */
const partnerBody = `<script>${clubListScript}</script>`;

let extension: LoadedExtension;
let partner: PageServer;
let stack: SandboxAndProxy;
let page: Page;
let club: string;
let partnerPage: string;

/** Open polls of the page's club that sam may vote in and has not. */
function votablePolls(): Promise<Poll[]> {
  return votablePollsOf(stack, 'sam', club);
}

/** The polls `username` voted in, as the platform recorded them. */
async function votedPollIds(username: string): Promise<string[]> {
  return (await pollsOfFan(stack, username)).filter((poll) => poll.userVote === true).map((poll) => poll.id);
}

/** The fan clicks Vote in `tab`: the confirmation window opens and shows the proposal; the fan leaves it open. */
async function openProposal(tab: Page, poll: Poll): Promise<Page> {
  await armClick(tab, { type: 'vote', pollId: poll.id, answerId: poll.answers[0]!.id });
  const window = confirmationWindow(extension.context);
  await tab.click('#act');
  const confirm = await window;
  await readProposal(confirm);
  return confirm;
}

/** Resolves once the extension closed the window by itself. */
function closedByExtension(window: Page): Promise<void> {
  return window.isClosed()
    ? Promise.resolve()
    : new Promise((resolve) =>
        window.once('close', () => {
          resolve();
        }),
      );
}

async function newPartnerTab(): Promise<Page> {
  const tab = await extension.context.newPage();
  await tab.goto(partnerPage);
  return tab;
}

let votesBefore: string[];

beforeAll(async () => {
  extension = await launchExtension();
  partner = await servePage(bridgePage('Partner page', partnerBody));
  stack = await startStack([partner.url]);
  await configureExtension(extension, stack);
  club = busiestClub(await votablePolls());
  partnerPage = `${partner.url}/?club=${club}`;
  page = await extension.context.newPage();
  await page.goto(partnerPage);
  await connectSite(extension, page, 'extension-connect-club-rule');
  await Promise.all([
    askWithFanClick(page, { type: 'sign-in', tracking: {} }),
    completeConsent(extension.context, 'allow', 'sam'),
  ]);
  votesBefore = await votedPollIds('sam');
});

afterAll(async () => {
  await extension.close();
  await stack.close();
  await partner.close();
});

describe('a proposal left open', () => {
  it('ends when its tab navigates', async () => {
    const tab = await newPartnerTab();
    const [poll] = await votablePolls();
    const window = await openProposal(tab, poll!);
    const closed = closedByExtension(window);
    await tab.goto(`${partner.url}/another-page?club=${club}`);
    await closed;
    await tab.close();
    expect(await votedPollIds('sam')).toEqual(votesBefore);
  });

  it('ends when its tab closes', async () => {
    const tab = await newPartnerTab();
    const [poll] = await votablePolls();
    const window = await openProposal(tab, poll!);
    const closed = closedByExtension(window);
    await tab.close();
    await closed;
    expect(await votedPollIds('sam')).toEqual(votesBefore);
  });

  it('ends when the poll closes, and the page is told vote_cancelled', async () => {
    const [poll] = await votablePolls();
    // The poll closes in a few seconds, by the platform's own record.
    const stored = stack.sandbox.sandbox.state.polls.find(poll!.id)! as { closeAt: number };
    stored.closeAt = stack.sandbox.sandbox.state.clock.now() + 4000;
    const window = await openProposal(page, poll!);
    await window.setViewportSize({ width: 440, height: 620 });
    await window.screenshot({ path: screenshotPath('extension-proposal-until-poll-closes') });
    await closedByExtension(window);
    expect(await clickedOutcome(page, 5000)).toMatchObject({ ok: false, error: { code: 'vote_cancelled' } });
    expect(await votedPollIds('sam')).toEqual(votesBefore);
  });

  it('ends when the fan disconnects the site, and the page is told vote_cancelled', async () => {
    const [poll] = await votablePolls();
    const window = await openProposal(page, poll!);
    const closed = closedByExtension(window);
    const popup = await openPopupFor(extension, page);
    await popup.getByRole('button', { name: 'Disconnect this site' }).click();
    await closed;
    expect(await clickedOutcome(page, 5000)).toMatchObject({ ok: false, error: { code: 'vote_cancelled' } });
    await popup.close();
    expect(await votedPollIds('sam')).toEqual(votesBefore);
    await connectSite(extension, page);
  });

  it('ends at sign-out, and is never cast for the next fan who signs in', async () => {
    const [poll] = await votablePolls();
    const window = await openProposal(page, poll!);
    const proposalId = new URL(window.url()).searchParams.get('proposal');
    const closed = closedByExtension(window);
    const popup = await openPopupFor(extension, page);
    await popup.getByRole('button', { name: 'Sign out' }).click();
    await closed;
    expect(await clickedOutcome(page, 5000)).toMatchObject({ ok: false, error: { code: 'vote_cancelled' } });
    // Another account signs in; the old proposal's decision, sent as the window would have sent it, is refused.
    await popup.getByRole('button', { name: 'Sign in' }).click();
    await completeConsent(extension.context, 'allow', 'alex');
    await popup
      .getByTestId('session')
      .filter({ hasText: findFanByUsername('alex')!.userId })
      .waitFor();
    const alexVotesBefore = await votedPollIds('alex');
    const decided = await popup.evaluate(
      ([id, answerId]) =>
        chrome.runtime.sendMessage({ type: 'proposal-decision', payload: { proposalId: id, answerId } }),
      [proposalId, poll!.answers[0]!.id] as const,
    );
    expect(decided).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    await popup.close();
    expect(await votedPollIds('sam')).toEqual(votesBefore);
    expect(await votedPollIds('alex')).toEqual(alexVotesBefore);
  });
});

declare const chrome: {
  runtime: { sendMessage(message: unknown): Promise<unknown> };
};
