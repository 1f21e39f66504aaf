// Attacks on the built extension in Chromium, as the issue tried them, with the fan signed in and one partner site
// connected. The attacker is a script on the connected site itself (an ad, any third-party script), a site that
// frames it, a frame inside it, and an unrelated site. Every test asserts on what the platform recorded: no vote the
// fan did not confirm, the confirmed answer exactly, no platform call beyond the tab's budget. Tokens carry a canary.
import type { Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Poll } from '../../src/platform/types.ts';
import { findFanByUsername } from '../../src/sandbox/data/fans.ts';
import { pageBudgetRules } from '../../extension/background/page-requests.ts';
import {
  afterFramePainted,
  armClick,
  busiestClub,
  clubListScript,
  votablePollsOf,
  askFromScript,
  askWithFanClick,
  bridgePage,
  clickedOutcome,
  completeConsent,
  configureExtension,
  confirmationWindow,
  connectSite,
  launchExtension,
  openPopupFor,
  pollsOfFan,
  readProposal,
  screenshotPath,
  startStack,
  type BridgeOutcomeInPage,
  type LoadedExtension,
} from './extension-harness.ts';
import { canaryTokenPrefix } from '../support/canary.ts';
import { forwardAndCount, type CountingForwarder } from '../support/counting-forwarder.ts';
import {
  envelope,
  extensionMessagesInPage,
  forgedAnswer,
  ignoredMessages,
  postInPage,
} from './hostile-messages.ts';
import { servePage, type PageServer } from '../support/page-server.ts';
import { bridgeCapacity, floodInPage } from '../support/bridge-flood.ts';
import { onAnotherSite } from './widget-stack.ts';
import type { SandboxAndProxy } from '../support/stack.ts';

/**
 * The partner page: `?club=<partner id>` shows that club's list of polls (what the extension records at connect time),
 * `?frames=N` adds N same-site frames, `?third=<url>` a hidden third-party frame.
 */
const partnerBody = `<script>${clubListScript}
  const query = new URLSearchParams(location.search);
  for (let n = 0; n < Number(query.get('frames') ?? 0); n += 1) {
    const frame = document.createElement('iframe'); frame.src = '/frame-' + n; document.body.append(frame);
  }
  if (query.get('third')) {
    const frame = document.createElement('iframe'); frame.src = query.get('third');
    frame.style.cssText = 'width:1px;height:1px;opacity:0'; document.body.append(frame);
  }
</script>`;

let extension: LoadedExtension;
let partner: PageServer;
let unrelated: PageServer;
let decoy: PageServer;
let stack: SandboxAndProxy;
let platform: CountingForwarder;
let page: Page;
let polls: Poll[];
/** The club whose polls the partner page showed when the fan connected it. */
let club: string;

/** Open polls sam may vote in and has not (of the page's club, unless `anyClub`). */
function votablePolls(anyClub = false): Promise<Poll[]> {
  return votablePollsOf(stack, 'sam', anyClub ? undefined : club);
}

/** sam's votes as the platform has them: poll id -> the answer with a vote status. */
async function recordedVotes(): Promise<Map<string, string>> {
  const votes = new Map<string, string>();
  for (const poll of await pollsOfFan(stack, 'sam')) {
    // The sandbox sends `voteStatus: null` on the answers the fan did not choose.
    const answer = poll.answers.find((each) => typeof each.voteStatus === 'string');
    if (poll.userVote === true && answer) votes.set(poll.id, answer.id);
  }
  return votes;
}

/** Whether `url` is a confirmation window's or a sign-in window's. */
const isPrompt = (url: string) => url.includes('/confirm.html') || url.includes('/oauth2/authorize');

/** The tabs the extension's worker sees, by id: a round trip to the worker, after anything it was asked before. */
async function tabsOfWorker(): Promise<Map<number, string>> {
  const worker = await extension.worker();
  const tabs = await worker.evaluate(async () => {
    const { chrome } = globalThis as unknown as {
      chrome: { tabs: { query(query: object): Promise<unknown> } };
    };
    const all = (await chrome.tabs.query({})) as { id?: number; url?: string; pendingUrl?: string }[];
    return all.map((tab) => [tab.id ?? -1, tab.pendingUrl ?? tab.url ?? ''] as const);
  });
  return new Map(tabs);
}

/**
 * Confirmation windows that opened while `action` ran: those the test saw open, or, if more, the new ones the
 * extension's worker has once the action is over (so a window it opened late is counted too).
 */
async function windowsDuring(action: () => Promise<unknown>): Promise<number> {
  let opened = 0;
  const count = (candidate: Page) => {
    if (isPrompt(candidate.url())) opened += 1;
  };
  const before = await tabsOfWorker();
  extension.context.on('page', count);
  await action();
  const after = await tabsOfWorker();
  extension.context.off('page', count);
  const added = [...after].filter(([id, url]) => !before.has(id) && isPrompt(url));
  return Math.max(opened, added.length);
}

function postRaw(target: Page | Frame, message: unknown, requestId = 'attack', timeoutMs = 1500) {
  return target.evaluate(postInPage, [message, requestId, timeoutMs] as const);
}

let votesBefore: Map<string, string>;

beforeAll(async () => {
  extension = await launchExtension();
  partner = await servePage(bridgePage('Partner page', partnerBody));
  unrelated = await servePage(bridgePage('Unrelated page'));
  decoy = await servePage(
    `<!doctype html><html lang="en"><head><title>Win a prize</title></head><body>
      <button style="position:absolute;left:8px;top:60px;width:200px;height:40px">Claim your prize</button>
      <iframe src="${partner.url}/" style="position:absolute;left:0;top:0;width:600px;height:300px;opacity:0.01;border:0"></iframe>
    </body></html>`,
    'localhost',
  );
  stack = await startStack([partner.url]);
  platform = await forwardAndCount(stack.sandbox.apiUrl);
  await configureExtension(extension, stack, platform.url);
  polls = await pollsOfFan(stack, 'sam');
  // The club with the most polls sam can vote in: the partner page shows its list.
  club = busiestClub(await votablePolls(true));
  page = await extension.context.newPage();
  await page.goto(`${partner.url}/?club=${club}`);
  await connectSite(extension, page);
  await Promise.all([
    askWithFanClick(page, { type: 'sign-in', tracking: {} }),
    completeConsent(extension.context, 'allow', 'sam'),
  ]);
  votesBefore = await recordedVotes();
});

afterAll(async () => {
  await extension.close();
  await platform.close();
  await stack.close();
  for (const server of [partner, unrelated, decoy]) await server.close();
});

describe('a script on the connected partner page', () => {
  it('gets nothing from forged, malformed or out-of-list messages (attempts 1-15)', async () => {
    const ignored = ignoredMessages(polls[0]!, stack.sandbox.apiUrl);
    const before = await page.evaluate(extensionMessagesInPage);
    // All posted at once, each waited on for the same time: an answer to any of them fails the test.
    const outcomes = await Promise.all([
      ...ignored.map(({ message, requestId }) => postRaw(page, message, requestId)),
      postRaw(page, forgedAnswer, 'none'),
    ]);
    expect(outcomes.every((outcome) => 'timeout' in outcome)).toBe(true);
    // The page hears only its own messages that pose as the extension's: the forged answer and one forged request.
    const posing = [...ignored.map(({ message }) => message), forgedAnswer].filter(
      (message) => (message as { source?: string }).source === 'fan-polls-extension',
    );
    expect(posing).toHaveLength(2);
    expect(await page.evaluate(extensionMessagesInPage)).toBe(before + posing.length);
  });

  it('cannot vote, or open any window, with no action by the fan', async () => {
    const [poll] = await votablePolls();
    const vote = { type: 'vote', pollId: poll!.id, answerId: poll!.answers[0]!.id };
    const opened = await windowsDuring(async () => {
      expect(await askFromScript(page, vote)).toMatchObject({
        ok: false,
        error: { code: 'user_activation_required' },
      });
    });
    expect(opened).toBe(0);
    expect(await recordedVotes()).toEqual(votesBefore);
  });

  it('cannot vote by clicking the card’s button itself (synthetic clicks carry no user activation)', async () => {
    const [poll] = await votablePolls();
    await armClick(page, { type: 'vote', pollId: poll!.id, answerId: poll!.answers[0]!.id });
    const opened = await windowsDuring(async () => {
      await page.evaluate(() => {
        const button = document.querySelector<HTMLButtonElement>('#act')!;
        button.click();
        button.dispatchEvent(new MouseEvent('click', { bubbles: true }));
      });
      expect(await clickedOutcome(page)).toMatchObject({
        ok: false,
        error: { code: 'user_activation_required' },
      });
    });
    expect(opened).toBe(0);
    expect(await recordedVotes()).toEqual(votesBefore);
  });

  it('swaps the answer of the fan’s click: the window shows what was really proposed, the fan’s own pick is cast', async () => {
    const [poll] = await votablePolls();
    const [fansPick, swapped] = poll!.answers;
    // The fan clicks to vote for their pick; the script rewrote the request to another answer before it left.
    await armClick(page, { type: 'vote', pollId: poll!.id, answerId: swapped!.id });
    const window = confirmationWindow(extension.context);
    await page.click('#act');
    const confirm = await window;
    const shown = await readProposal(confirm);
    expect(shown.preselected).toBe(swapped!.answer);
    expect(shown.site).toBe(partner.url);
    // The fan sees the wrong answer and picks theirs in the extension's window, which no page can script.
    await confirm.getByRole('radio', { name: fansPick!.answer }).check();
    await confirm.locator('[data-testid="confirm"][aria-disabled="false"]').waitFor();
    await confirm.screenshot({ path: screenshotPath('extension-hostile-swapped-answer') });
    await confirm
      .getByTestId('confirm')
      .click()
      .catch(() => undefined);
    expect(await clickedOutcome(page)).toEqual({
      ok: true,
      result: { type: 'vote', accepted: true, answerId: fansPick!.id },
    });
    const votes = await recordedVotes();
    expect(votes.get(poll!.id)).toBe(fansPick!.id);
    expect(votes.size).toBe(votesBefore.size + 1);
    votesBefore = votes;
  });

  it('cannot get a vote from a click that lands the moment the window appears', async () => {
    const [poll] = await votablePolls();
    await armClick(page, { type: 'vote', pollId: poll!.id, answerId: poll!.answers[0]!.id });
    const window = confirmationWindow(extension.context);
    await page.click('#act');
    const confirm = await window;
    await confirm.getByTestId('confirm').waitFor();
    // As early as a click can land, and Enter too: both are ignored until the window has been in front a moment.
    await confirm.getByTestId('confirm').click({ force: true });
    await confirm.keyboard.press('Enter');
    expect(await confirm.getByTestId('confirm').getAttribute('aria-disabled')).toBe('true');
    await confirm
      .getByRole('button', { name: 'Cancel' })
      .click()
      .catch(() => undefined);
    expect(await clickedOutcome(page)).toMatchObject({ ok: false, error: { code: 'vote_cancelled' } });
    expect(await recordedVotes()).toEqual(votesBefore);
  });

  it('gets at most the tab’s budget of platform calls, whatever the number of frames', async () => {
    const flooded = await extension.context.newPage();
    await flooded.goto(`${partner.url}/?frames=6`);
    const frames = flooded.frames().filter((frame) => frame !== flooded.mainFrame());
    expect(frames).toHaveLength(6);
    await Promise.all(frames.map((frame) => frame.waitForFunction(() => 'askExtension' in window)));
    const pollId = polls.find((poll) => poll.partnerId === club)!.id;
    const readsBefore = platform.requests.filter((request) => request.path.includes('/user/poll/')).length;
    const outcomes = (
      await Promise.all(
        [flooded.mainFrame(), ...frames].map((frame) =>
          frame.evaluate(floodInPage, {
            request: { type: 'poll-view', pollId },
            count: 120,
            answeredAtLeast: bridgeCapacity,
            quietMs: 2000,
            timeoutMs: 6000,
          }),
        ),
      )
    ).flat();
    const reads =
      platform.requests.filter((request) => request.path.includes('/user/poll/')).length - readsBefore;
    expect(outcomes).toHaveLength(840);
    expect(reads).toBeLessThanOrEqual(pageBudgetRules['platform calls per tab'].max);
    expect(outcomes.filter((outcome) => outcome.ok === true)).toHaveLength(reads);
    await flooded.close();
  });

  it('gets at most the tab’s budget of windows, each from a real click', async () => {
    const tab = await extension.context.newPage();
    await tab.goto(partner.url);
    const [poll] = await votablePolls();
    const vote = { type: 'vote', pollId: poll!.id, answerId: poll!.answers[0]!.id };
    for (let n = 0; n < pageBudgetRules['windows per tab'].max; n += 1) {
      await armClick(tab, vote);
      const window = confirmationWindow(extension.context);
      await tab.click('#act');
      // The fan closes the window: that is a no.
      const shown = await window;
      await shown.getByTestId('question').waitFor();
      await shown
        .getByRole('button', { name: 'Cancel' })
        .click()
        .catch(() => undefined);
      expect(await clickedOutcome(tab)).toMatchObject({ ok: false, error: { code: 'vote_cancelled' } });
    }
    const opened = await windowsDuring(async () => {
      expect(await askWithFanClick(tab, vote, 5000)).toMatchObject({
        ok: false,
        error: { code: 'rate_limited' },
      });
    });
    expect(opened).toBe(0);
    expect(await recordedVotes()).toEqual(votesBefore);
    await tab.close();
  });

  it('replays answers it saw, to no effect', async () => {
    const before = await page.evaluate(extensionMessagesInPage);
    const replayed = await page.evaluate(() => {
      const seen = (window as unknown as { seen: ({ source?: string } | null)[] }).seen.filter(
        (m) => m?.source === 'fan-polls-extension',
      );
      for (const answer of seen.slice(0, 20)) window.postMessage(answer, '*');
      return Math.min(seen.length, 20);
    });
    expect(replayed).toBeGreaterThan(0);
    // The bridge answers in order: this one comes after.
    expect(await postRaw(page, envelope({ type: 'hello' }, 'sync'), 'sync')).toMatchObject({ ok: true });
    expect(await page.evaluate(extensionMessagesInPage)).toBe(before + replayed + 1);
  });

  it('finds no extension internals and no token anywhere it can look', async () => {
    const found = await page.evaluate(
      async ([id]) => {
        const report: Record<string, unknown> = {};
        report['chromeRuntimeId'] =
          (window as unknown as { chrome?: { runtime?: { id?: string } } }).chrome?.runtime?.id ?? null;
        for (const path of ['popup.html', 'manifest.json', 'content/page-bridge.iife.js', 'confirm.html']) {
          report[path] = await fetch(`chrome-extension://${id}/${path}`).then(
            () => 'readable',
            () => 'blocked',
          );
        }
        report['storage'] =
          JSON.stringify(Object.entries(localStorage)) +
          JSON.stringify(Object.entries(sessionStorage)) +
          document.cookie;
        report['databases'] = JSON.stringify(await indexedDB.databases());
        report['timing'] = JSON.stringify(performance.getEntries().map((entry) => entry.name));
        report['globals'] = Object.keys(window).filter((key) => /fan|token|vault/i.test(key));
        report['dom'] = document.documentElement.outerHTML;
        report['seen'] = JSON.stringify((window as unknown as { seen: unknown[] }).seen);
        return report;
      },
      [extension.id] as const,
    );
    expect(found['chromeRuntimeId']).toBeNull();
    for (const path of ['popup.html', 'manifest.json', 'content/page-bridge.iife.js', 'confirm.html']) {
      expect(found[path]).toBe('blocked');
    }
    expect(found['globals']).toEqual([]);
    expect(found['databases']).toBe('[]');
    expect(JSON.stringify(found)).not.toContain(canaryTokenPrefix);
  });
});

describe('other sites', () => {
  it('an unrelated site learns nothing and opens nothing, even with the fan’s click', async () => {
    const other = await extension.context.newPage();
    await other.goto(unrelated.url);
    const opened = await windowsDuring(async () => {
      // Each waited on at once for the same time: an answer to any of them fails the test.
      const outcomes = await Promise.all([
        askFromScript(other, { type: 'hello' }, 1500),
        askFromScript(other, { type: 'status' }, 1500),
        askWithFanClick(
          other,
          { type: 'sign-in', tracking: { referrer: 'unrelated', campaign: 'phish' } },
          1500,
        ),
      ]);
      expect(outcomes).toEqual([{ timeout: true }, { timeout: true }, { timeout: true }]);
    });
    expect(opened).toBe(0);
    await other.close();
  });

  it('a site that frames the partner page over decoys gets no vote from the fan’s click in the frame', async () => {
    const framing = await extension.context.newPage();
    await framing.goto(`${decoy.url}/`);
    const frame = framing.frames().find((each) => each.url().startsWith(partner.url))!;
    await frame.waitForLoadState('load');
    await frame.waitForFunction(() => 'askExtension' in window);
    await frame.locator('#act').waitFor();
    const [poll] = await votablePolls();
    const opened = await windowsDuring(async () => {
      await armClick(frame, { type: 'vote', pollId: poll!.id, answerId: poll!.answers[0]!.id }, 2000);
      // The fan clicks the decoy "Claim your prize"; the almost invisible frame's button is what receives it.
      await afterFramePainted(frame);
      await frame.click('#act', { force: true });
      expect(await clickedOutcome(frame, 10_000)).toEqual({ timeout: true });
    });
    expect(opened).toBe(0);
    expect(await recordedVotes()).toEqual(votesBefore);
    await framing.close();
  });

  it('a hidden third-party frame inside the partner page is not heard', async () => {
    const host = await extension.context.newPage();
    await host.goto(`${partner.url}/?third=${encodeURIComponent(`${unrelated.url}/ad`)}`);
    const ad = host.frames().find((each) => each.url().startsWith(unrelated.url))!;
    await ad.waitForFunction(() => 'askExtension' in window);
    const opened = await windowsDuring(async () => {
      // Both waited on at once for the same time: an answer to either fails the test.
      const [asked, clicked] = await Promise.all([
        askFromScript(ad, { type: 'hello' }, 1500),
        (async () => {
          await armClick(ad, { type: 'sign-in', tracking: {} }, 1500);
          await afterFramePainted(ad);
          await ad.click('#act', { force: true });
          return clickedOutcome(ad);
        })(),
      ]);
      expect(asked).toEqual({ timeout: true });
      expect(clicked).toEqual({ timeout: true });
    });
    expect(opened).toBe(0);
    await host.close();
  });
});

describe('what a connected site may ask', () => {
  it('cannot learn the fan’s vote in a poll of another club, nor propose one there', async () => {
    const voted = await recordedVotes();
    const elsewhere = polls.filter((poll) => poll.partnerId !== club);
    // A poll of another club in which sam voted, as the platform recorded it: the answer a page must not learn.
    const target = elsewhere.find((poll) => voted.has(poll.id)) ?? elsewhere[0]!;
    const read = await askFromScript(page, { type: 'poll-view', pollId: target.id });
    expect(read).toMatchObject({ ok: false, error: { code: 'refused' } });
    expect(read).not.toHaveProperty('result');
    const opened = await windowsDuring(async () => {
      const vote = { type: 'vote', pollId: target.id, answerId: target.answers[0]!.id };
      const proposed = await askWithFanClick(page, vote, 5000);
      expect(proposed).toMatchObject({ ok: false, error: { code: 'refused' } });
      // Refused the same way whether or not the fan voted there: no `already_voted`.
      expect(proposed.error?.reason).toBeUndefined();
    });
    expect(opened).toBe(0);
    // Its own club's polls it may read.
    const own = polls.find((poll) => poll.partnerId === club)!;
    expect(await askFromScript(page, { type: 'poll-view', pollId: own.id })).toMatchObject({ ok: true });
    expect(await recordedVotes()).toEqual(votesBefore);
  });
});

describe('the same host on another port, and an alias of it', () => {
  it('the bridge is registered for the exact connected origin, port included', async () => {
    const worker = await extension.worker();
    const matches = await worker.evaluate(async () =>
      (await chrome.scripting.getRegisteredContentScripts()).flatMap((script) => script.matches ?? []),
    );
    expect(matches).toEqual([`${partner.url}/*`]);
  });

  it('gets no answer to any message, flooded or not, and opens nothing with the fan’s click', async () => {
    const otherPort = await servePage(bridgePage('Same host, another port', partnerBody));
    const alias = onAnotherSite(partner.url);
    const [poll] = await votablePolls();
    const tabs = await Promise.all(
      [otherPort.url, alias].map(async (url) => {
        const tab = await extension.context.newPage();
        await tab.goto(`${url}/?club=${club}`);
        return tab;
      }),
    );
    // Both tabs at once, and in each the asks, the flood and the clicks at once: any answer fails the test.
    const opened = await windowsDuring(() =>
      Promise.all(
        tabs.map(async (tab) => {
          const [asked, flooded, clicked] = await Promise.all([
            Promise.all(
              [{ type: 'hello' }, { type: 'status' }, { type: 'poll-view', pollId: poll!.id }].map(
                (request) => askFromScript(tab, request, 1000),
              ),
            ),
            // A flood: far more requests than a content script would ever hold in flight.
            tab.evaluate(floodInPage, {
              request: { type: 'hello' },
              count: 300,
              answeredAtLeast: 300,
              quietMs: 2000,
              timeoutMs: 2000,
            }),
            // One click after the other: the page has one button.
            (async () => {
              const outcomes: BridgeOutcomeInPage[] = [];
              for (const request of [
                { type: 'sign-in', tracking: {} },
                { type: 'vote', pollId: poll!.id, answerId: poll!.answers[0]!.id },
              ]) {
                outcomes.push(await askWithFanClick(tab, request, 1000));
              }
              return outcomes;
            })(),
          ]);
          expect(asked).toEqual([{ timeout: true }, { timeout: true }, { timeout: true }]);
          expect(flooded.every((outcome) => outcome.timeout === true)).toBe(true);
          expect(clicked).toEqual([{ timeout: true }, { timeout: true }]);
        }),
      ),
    );
    expect(opened).toBe(0);
    for (const tab of tabs) {
      expect(await tab.evaluate(extensionMessagesInPage)).toBe(0);
      await tab.close();
    }
    await otherPort.close();
    expect(await recordedVotes()).toEqual(votesBefore);
  });
});

describe('another fan on the same browser', () => {
  it('starts with no connected site: sam’s sites are forgotten at sign-out', async () => {
    const popup = await openPopupFor(extension, page);
    await popup.getByRole('button', { name: 'Sign out' }).click();
    await popup.getByTestId('session').filter({ hasText: 'Not signed in' }).waitFor();
    await popup.getByRole('button', { name: 'Sign in' }).click();
    await completeConsent(extension.context, 'allow', 'alex');
    await popup
      .getByTestId('session')
      .filter({ hasText: findFanByUsername('alex')!.userId })
      .waitFor();
    await popup.getByRole('button', { name: 'Connected sites' }).click();
    await popup.getByText('No connected site.').waitFor();
    await popup.close();
    await page.reload();
    expect(await askFromScript(page, { type: 'hello' }, 1500)).toEqual({ timeout: true });
  });

  it('recorded no vote but the one the fan confirmed', async () => {
    expect(await recordedVotes()).toEqual(votesBefore);
  });
});

declare const chrome: {
  scripting: { getRegisteredContentScripts(): Promise<{ matches?: string[] }[]> };
};
