// The fan's journey with the built extension: connect a site from the popup, sign in from a card's click, vote with
// confirmation in the extension's window, vote from the popup, keep the session over several expiries and a stopped
// worker, sign out (the site is forgotten) and leave no token behind. Screenshots of each step in test-results/.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Poll } from '../../src/platform/types.ts';
import { findFanByUsername } from '../../src/sandbox/data/fans.ts';
import { apiRequest, fanToken } from '../../src/sandbox/test-kit.ts';
import {
  answerConfirmation,
  askFromScript,
  askWithFanClick,
  bridgePage,
  busiestClub,
  clubListScript,
  completeConsent,
  configureExtension,
  connectSite,
  launchExtension,
  openPopupFor,
  screenshotPath,
  startStack,
  pollsOfFan,
  votablePollsOf,
  type LoadedExtension,
} from './extension-harness.ts';
import { canaryTokenPrefix } from '../support/canary.ts';
import { servePage, type PageServer } from '../support/page-server.ts';
import type { SandboxAndProxy } from '../support/stack.ts';
import { dumpExtensionStorage } from '../support/extension-storage.ts';
import { waitUntil } from '../support/wait-until.ts';

const accessTokenSeconds = 4;
let extension: LoadedExtension;
let site: PageServer;
let stack: SandboxAndProxy;
let page: Page;

type Ask = (
  request: unknown,
  timeoutMs?: number,
) => Promise<{ ok: boolean; result?: unknown; error?: { code: string } }>;

/** A request from the page's script, with no action by the fan. */
function ask(request: unknown, timeoutMs = 10_000) {
  return page.evaluate(([r, t]) => (window as unknown as { askExtension: Ask }).askExtension(r, t), [
    request,
    timeoutMs,
  ] as const);
}

async function recordedVote(pollId: string): Promise<Poll> {
  const check = await apiRequest(
    stack.sandbox.sandbox,
    `/polls/1.0.8/user/poll/${pollId}`,
    fanToken(stack.sandbox.sandbox, 'sam'),
  );
  return ((await check.json()) as { data: Poll }).data;
}

/** The club whose polls the match page shows (the site is connected for it). */
let club: string;

/** A poll of the page's club (for reads: voted in or not). */
async function pollOfClub(): Promise<Poll | undefined> {
  return (await pollsOfFan(stack, 'sam')).find((poll) => poll.partnerId === club);
}

/** Open polls of the page's club whose tokens `sam` holds, that sam has not voted in yet. */
function votablePolls(): Promise<Poll[]> {
  return votablePollsOf(stack, 'sam', club);
}

async function storedAccessToken(): Promise<string | undefined> {
  const worker = await extension.worker();
  return worker.evaluate(async () => {
    const stored = (await chrome.storage.session.get('accessGrant')) as {
      accessGrant?: { accessToken: string };
    };
    return stored.accessGrant?.accessToken;
  });
}

/** Every storage the extension has, as text, read in its service worker. */
async function everyStorage(): Promise<string> {
  const worker = await extension.worker();
  return worker.evaluate(dumpExtensionStorage);
}

declare const chrome: {
  storage: {
    local: { get(keys: unknown): Promise<unknown> };
    session: { get(keys: unknown): Promise<unknown> };
  };
};

beforeAll(async () => {
  extension = await launchExtension();
  site = await servePage(bridgePage('Riverside match page', `<script>${clubListScript}</script>`));
  stack = await startStack([site.url], { lifetimes: { accessTokenSeconds } });
  await configureExtension(extension, stack);
  club = busiestClub(await votablePollsOf(stack, 'sam'));
  page = await extension.context.newPage();
  await page.goto(`${site.url}/?club=${club}`);
  await connectSite(extension, page, 'extension-1-connect-site');
});

afterAll(async () => {
  await extension.close();
  await stack.close();
  await site.close();
});

describe('the fan with the extension', () => {
  it('ends a refused sign-in in a clear state', async () => {
    const [outcome] = await Promise.all([
      askWithFanClick(page, { type: 'sign-in', tracking: {} }),
      completeConsent(extension.context, 'deny'),
    ]);
    expect(outcome).toMatchObject({ ok: false, error: { code: 'access_denied' } });
    expect(await everyStorage()).not.toContain(canaryTokenPrefix);
    expect(await ask({ type: 'status' })).toMatchObject({ result: { status: { signedIn: false } } });
  });

  it('signs in on the sandbox consent page from a card, with the card’s tracking parameters', async () => {
    const [outcome, consentUrl] = await Promise.all([
      askWithFanClick(page, { type: 'sign-in', tracking: { referrer: 'riverside', param3: 'banner' } }),
      completeConsent(extension.context, 'allow', 'sam'),
    ]);
    const authorize = new URL(consentUrl).searchParams;
    expect(authorize.get('referrer')).toBe('riverside');
    expect(authorize.get('param3')).toBe('banner');
    expect(authorize.get('partner_tag')).toBe('fan-polls-demo');
    expect(authorize.get('code_challenge_method')).toBe('S256');
    expect(authorize.get('redirect_uri')).toBe(`https://${extension.id}.chromiumapp.org/`);
    expect(authorize.get('state')).toBeTruthy();
    expect(outcome).toEqual({ ok: true, result: { type: 'sign-in', status: { signedIn: true } } });
    expect(await storedAccessToken()).toMatch(new RegExp(`^${canaryTokenPrefix}`));
  });

  it('votes with confirmation: the page proposes, the fan confirms in the extension’s window', async () => {
    const [poll] = await votablePolls();
    const answer = poll!.answers[0]!;
    const [outcome, shown] = await Promise.all([
      askWithFanClick(page, { type: 'vote', pollId: poll!.id, answerId: answer.id }),
      answerConfirmation(extension.context, 'confirm', { screenshot: 'extension-2-confirm-vote' }),
    ]);
    expect(shown).toMatchObject({
      site: site.url,
      club: poll!.partnerName,
      question: poll!.question,
      preselected: answer.answer,
    });
    expect(shown.binding).toMatch(poll!.isBound ? /^Binding/ : /^Consultative/);
    expect(shown.weight).toContain(poll!.tokenLimit.toLocaleString('en-US'));
    expect(outcome).toEqual({ ok: true, result: { type: 'vote', accepted: true, answerId: answer.id } });
    const recorded = await recordedVote(poll!.id);
    expect(recorded.userVote).toBe(true);
    expect(recorded.answers.find((each) => each.id === answer.id)?.voteStatus).toEqual(expect.any(String));
    const view = (await ask({ type: 'poll-view', pollId: poll!.id })) as {
      ok: true;
      result: { view: { userVote: boolean } };
    };
    expect(view.result.view.userVote).toBe(true);
    // A second proposal is refused at once with the reason the card shows, and no window opens.
    expect(
      await askWithFanClick(page, { type: 'vote', pollId: poll!.id, answerId: answer.id }),
    ).toMatchObject({
      ok: false,
      error: { code: 'refused', reason: 'already_voted' },
    });
  });

  it('sends nothing when the fan cancels the confirmation', async () => {
    const [poll] = await votablePolls();
    const [outcome] = await Promise.all([
      askWithFanClick(page, { type: 'vote', pollId: poll!.id, answerId: poll!.answers[0]!.id }),
      answerConfirmation(extension.context, 'cancel'),
    ]);
    expect(outcome).toMatchObject({ ok: false, error: { code: 'vote_cancelled' } });
    expect((await recordedVote(poll!.id)).userVote).toBe(false);
  });

  it('votes from the popup’s <fan-poll> card and shows the fan’s polls with userVote and voteStatus', async () => {
    const [poll] = await votablePolls();
    const answer = poll!.answers[1]!;
    const popup = await openPopupFor(extension, page);
    await popup
      .getByTestId('session')
      .filter({ hasText: findFanByUsername('sam')!.userId })
      .waitFor();
    await popup.getByTestId('poll-row').first().waitFor();
    await popup.screenshot({ path: screenshotPath('extension-3-popup-polls'), fullPage: true });
    // A compact row opens into the widget's own card, reading the fan's poll and voting through the background.
    await popup.getByTestId('poll-row').filter({ hasText: poll!.question }).first().click();
    const card = popup.locator(`fan-poll[poll-id="${poll!.id}"]`);
    await card.locator('[part="question"]').filter({ hasText: poll!.question }).waitFor();
    await card.getByRole('radio').nth(1).check();
    await card.getByRole('button', { name: 'Vote', exact: true }).click();
    // userVote and voteStatus: the card shows the fan's answer and the platform's status of the vote.
    const actions = card.locator('[part="actions"]');
    await actions
      .filter({ hasText: new RegExp(`You voted for .+ \\((being confirmed|confirmed|rejected)\\)`) })
      .waitFor();
    expect(await actions.textContent()).toContain(`You voted for ${answer.answer}`);
    expect(await card.getByRole('radio').nth(1).isChecked()).toBe(true);
    const check = await apiRequest(
      stack.sandbox.sandbox,
      `/polls/1.0.8/user/poll/${poll!.id}`,
      fanToken(stack.sandbox.sandbox, 'sam'),
    );
    const recorded = ((await check.json()) as { data: Poll }).data;
    expect(recorded.userVote).toBe(true);
    expect(recorded.answers.find((each) => each.id === answer.id)?.voteStatus).toEqual(expect.any(String));
    await popup.screenshot({ path: screenshotPath('extension-4-popup-voted'), fullPage: true });
    // The userVoted filter lists the poll just voted in, marked as voted.
    await popup.getByLabel('Only polls I voted in').check();
    await popup
      .getByTestId('poll-row')
      .filter({ hasText: poll!.question })
      .filter({ hasText: 'You voted' })
      .first()
      .waitFor();
    await popup.getByRole('button', { name: 'History' }).click();
    await popup.getByTestId('poll-row').first().waitFor();
    await popup.getByRole('button', { name: 'Connected sites' }).click();
    await popup
      .getByTestId('site-activity')
      .filter({ hasText: /[1-9]\d* reads? of your votes · 2 votes proposed · 1 confirmed/ })
      .waitFor();
    await popup.screenshot({ path: screenshotPath('extension-5-popup-sites'), fullPage: true });
    await popup.close();
  });

  it('keeps the session over several access-token expiries with no failed call', async () => {
    const poll = await pollOfClub();
    const seenTokens = new Set<string>();
    const failures: unknown[] = [];
    // The fan's page asks on, twice a second, until the vault has held four access tokens (three expiries).
    await waitUntil(
      async () => {
        const outcome = await ask({ type: 'poll-view', pollId: poll!.id });
        if (!outcome.ok) failures.push(outcome);
        const token = await storedAccessToken();
        if (token) seenTokens.add(token);
        return seenTokens.size >= 4;
      },
      'four access tokens',
      accessTokenSeconds * 8 * 1000,
      500,
    );
    expect(failures).toEqual([]);
    expect(seenTokens.size).toBeGreaterThanOrEqual(4);
  });

  it('refreshes the access token on its alarm while no page asks for anything', async () => {
    const before = await storedAccessToken();
    expect(before).toMatch(new RegExp(`^${canaryTokenPrefix}`));
    // Unpacked, Chromium fires alarms a second or more ahead; packed, 30 s is the floor (the refresh is early enough).
    await expect
      .poll(storedAccessToken, { timeout: accessTokenSeconds * 5 * 1000, interval: 500 })
      .not.toBe(before);
    expect(await storedAccessToken()).toMatch(new RegExp(`^${canaryTokenPrefix}`));
  });

  it('keeps the session when the service worker is stopped', async () => {
    const cdp = await extension.context.newCDPSession(page);
    await cdp.send('ServiceWorker.enable');
    await cdp.send('ServiceWorker.stopAllWorkers');
    expect(await ask({ type: 'status' })).toEqual({
      ok: true,
      result: { type: 'status', status: { signedIn: true } },
    });
    const poll = await pollOfClub();
    expect(await ask({ type: 'poll-view', pollId: poll!.id })).toMatchObject({ ok: true });
  });

  it('signs out: no token left in any storage, and the old token is refused by the platform', async () => {
    const oldToken = await storedAccessToken();
    expect(oldToken).toBeDefined();
    const popup = await openPopupFor(extension, page);
    await popup.getByRole('button', { name: 'Sign out' }).click();
    await popup.getByTestId('session').filter({ hasText: 'Not signed in' }).waitFor();
    // The site belonged to the fan who connected it: the next fan starts with none.
    await popup.getByRole('button', { name: 'Connect this site' }).waitFor();
    await popup.screenshot({ path: screenshotPath('extension-6-signed-out'), fullPage: true });
    await popup.close();
    expect(await everyStorage()).not.toContain(canaryTokenPrefix);
    const refused = await apiRequest(stack.sandbox.sandbox, '/user/1.0.0/user/me', oldToken);
    expect(refused.status).toBe(401);
    await page.reload();
    expect(await askFromScript(page, { type: 'hello' }, 1500)).toEqual({ timeout: true });
  });
});
