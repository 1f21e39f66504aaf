// The fan's journey with the built extension: sign in on the sandbox, approve a site, vote from a page and from the
// popup, keep the session over several expiries and a stopped worker, sign out and leave no token behind.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Poll } from '../../src/platform/types.ts';
import { findFanByUsername } from '../../src/sandbox/data/fans.ts';
import { apiRequest, fanToken } from '../../src/sandbox/test-kit.ts';
import {
  answerApproval,
  bridgePage,
  completeConsent,
  configureExtension,
  launchExtension,
  pollsOfFan,
  startStack,
  type LoadedExtension,
} from './extension-harness.ts';
import { canaryTokenPrefix } from '../support/canary.ts';
import { servePage, type PageServer } from '../support/page-server.ts';
import type { SandboxAndProxy } from '../support/stack.ts';
import { dumpExtensionStorage } from '../support/extension-storage.ts';

const accessTokenSeconds = 4;
let extension: LoadedExtension;
let site: PageServer;
let stack: SandboxAndProxy;
let page: Page;

type Ask = (
  request: unknown,
  timeoutMs?: number,
) => Promise<{ ok: boolean; result?: unknown; error?: { code: string } }>;

function ask(request: unknown, timeoutMs = 10_000) {
  return page.evaluate(([r, t]) => (window as unknown as { askExtension: Ask }).askExtension(r, t), [
    request,
    timeoutMs,
  ] as const);
}

/** Open polls of clubs whose tokens `sam` holds, that sam has not voted in yet. */
async function votablePolls(): Promise<Poll[]> {
  const holdings = findFanByUsername('sam')?.holdings ?? {};
  const polls = await pollsOfFan(stack, 'sam');
  const now = Date.now();
  return polls.filter(
    (poll) =>
      (holdings[poll.partnerId] ?? 0) > 0 &&
      poll.userVote !== true &&
      poll.status !== 'cancelled' &&
      (poll.openAt === undefined || Date.parse(poll.openAt) <= now) &&
      (poll.closeAt === undefined || Date.parse(poll.closeAt) > now + 60_000),
  );
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
  site = await servePage(bridgePage('Riverside match page'));
  stack = await startStack([site.url], { lifetimes: { accessTokenSeconds } });
  await configureExtension(extension, stack);
  page = await extension.context.newPage();
  await page.goto(site.url);
});

afterAll(async () => {
  await extension.close();
  await stack.close();
  await site.close();
});

describe('the fan with the extension', () => {
  it('ends a refused sign-in in a clear state', async () => {
    const [outcome] = await Promise.all([
      ask({ type: 'sign-in', tracking: {} }, 30_000),
      completeConsent(extension.context, 'deny'),
    ]);
    expect(outcome).toMatchObject({ ok: false, error: { code: 'access_denied' } });
    expect(await everyStorage()).not.toContain(canaryTokenPrefix);
    expect(await ask({ type: 'status' })).toMatchObject({ result: { status: { signedIn: false } } });
  });

  it('signs in on the sandbox consent page from a card, with the card’s tracking parameters', async () => {
    const [outcome, consentUrl] = await Promise.all([
      ask({ type: 'sign-in', tracking: { referrer: 'riverside', param3: 'banner' } }, 30_000),
      completeConsent(extension.context, 'allow', 'sam'),
    ]);
    const authorize = new URL(consentUrl).searchParams;
    expect(authorize.get('referrer')).toBe('riverside');
    expect(authorize.get('param3')).toBe('banner');
    expect(authorize.get('partner_tag')).toBe('fan-polls-demo');
    expect(authorize.get('code_challenge_method')).toBe('S256');
    expect(authorize.get('redirect_uri')).toBe(`https://${extension.id}.chromiumapp.org/`);
    expect(authorize.get('state')).toBeTruthy();
    expect(outcome).toEqual({
      ok: true,
      result: { type: 'sign-in', status: { signedIn: true, siteApproved: false } },
    });
    expect(await storedAccessToken()).toMatch(new RegExp(`^${canaryTokenPrefix}`));
  });

  it('refuses poll views and votes before the fan approves the site', async () => {
    const [poll] = await votablePolls();
    expect(poll).toBeDefined();
    expect(await ask({ type: 'poll-view', pollId: poll!.id })).toMatchObject({
      ok: false,
      error: { code: 'site_not_approved' },
    });
    expect(await ask({ type: 'vote', pollId: poll!.id, answerId: poll!.answers[0]!.id })).toMatchObject({
      ok: false,
      error: { code: 'site_not_approved' },
    });
  });

  it('approves the site in an extension window, then votes from the page', async () => {
    const [connected, shownOrigin] = await Promise.all([
      ask({ type: 'connect' }, 30_000),
      answerApproval(extension.context, true),
    ]);
    expect(shownOrigin).toBe(site.url);
    expect(connected).toEqual({
      ok: true,
      result: { type: 'connect', status: { signedIn: true, siteApproved: true } },
    });
    const [poll] = await votablePolls();
    const answerId = poll!.answers[0]!.id;
    expect(await ask({ type: 'vote', pollId: poll!.id, answerId })).toEqual({
      ok: true,
      result: { type: 'vote', accepted: true },
    });
    const view = (await ask({ type: 'poll-view', pollId: poll!.id })) as {
      ok: true;
      result: { view: { userVote: boolean; answers: { id: string; voteStatus?: string }[] } };
    };
    expect(view.result.view.userVote).toBe(true);
    expect(view.result.view.answers.find((answer) => answer.id === answerId)?.voteStatus).toBeDefined();
    // A second vote is refused with the stable reason the card shows ("already voted").
    expect(await ask({ type: 'vote', pollId: poll!.id, answerId })).toMatchObject({
      ok: false,
      error: { code: 'refused', reason: 'already_voted', message: 'You have already voted in this poll.' },
    });
  });

  it('votes from the popup’s <fan-poll> card and shows the fan’s polls with userVote and voteStatus', async () => {
    const [poll] = await votablePolls();
    const answer = poll!.answers[1]!;
    const popup = await extension.context.newPage();
    await popup.goto(`chrome-extension://${extension.id}/popup.html`);
    await popup
      .getByTestId('session')
      .filter({ hasText: findFanByUsername('sam')!.userId })
      .waitFor();
    // The widget's own card, reading the fan's poll and voting through the background.
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
    expect(recorded.answers.find((each) => each.id === answer.id)?.voteStatus).toBeDefined();
    // The userVoted filter lists the poll just voted in, as a card with the fan's vote.
    await popup.getByLabel('Only polls I voted in').check();
    await popup
      .locator(`fan-poll[poll-id="${poll!.id}"] [part="actions"]`)
      .filter({ hasText: `You voted for ${answer.answer}` })
      .waitFor();
    await popup.getByRole('button', { name: 'History' }).click();
    await popup.getByTestId('history-page').filter({ hasText: 'Page 1' }).waitFor();
    await popup.locator('fan-poll [part="question"]').first().waitFor();
    await popup.close();
  });

  it('keeps the session over several access-token expiries with no failed call', async () => {
    const [poll] = await votablePolls();
    const seenTokens = new Set<string>();
    const failures: unknown[] = [];
    const until = Date.now() + accessTokenSeconds * 3 * 1000;
    while (Date.now() < until || seenTokens.size < 4) {
      const outcome = await ask({ type: 'poll-view', pollId: poll!.id });
      if (!outcome.ok) failures.push(outcome);
      const token = await storedAccessToken();
      if (token) seenTokens.add(token);
      await page.waitForTimeout(500);
    }
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
      result: { type: 'status', status: { signedIn: true, siteApproved: true } },
    });
    const [poll] = await votablePolls();
    expect(await ask({ type: 'poll-view', pollId: poll!.id })).toMatchObject({ ok: true });
  });

  it('lets the fan revoke the site in the popup', async () => {
    const popup = await extension.context.newPage();
    await popup.goto(`chrome-extension://${extension.id}/popup.html`);
    await popup.getByRole('button', { name: 'Connected sites' }).click();
    await popup.getByRole('button', { name: `Revoke ${site.url}` }).click();
    await popup.getByText('No site may ask for your votes.').waitFor();
    await popup.close();
    expect(await ask({ type: 'status' })).toMatchObject({ result: { status: { siteApproved: false } } });
  });

  it('signs out: no token left in any storage, and the old token is refused by the platform', async () => {
    const oldToken = await storedAccessToken();
    expect(oldToken).toBeDefined();
    const popup = await extension.context.newPage();
    await popup.goto(`chrome-extension://${extension.id}/popup.html`);
    await popup.getByRole('button', { name: 'Sign out' }).click();
    await popup.getByTestId('session').filter({ hasText: 'Not signed in' }).waitFor();
    await popup.close();
    expect(await everyStorage()).not.toContain(canaryTokenPrefix);
    const refused = await apiRequest(stack.sandbox.sandbox, '/user/1.0.0/user/me', oldToken);
    expect(refused.status).toBe(401);
    expect(await ask({ type: 'status' })).toMatchObject({ result: { status: { signedIn: false } } });
  });
});
