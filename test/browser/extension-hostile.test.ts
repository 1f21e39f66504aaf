// A hostile page against the built extension while the fan is signed in: forged and malformed messages, replayed
// answers, calls before approval, floods, and a hunt for tokens everywhere a page can look. Tokens carry a canary.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Poll } from '../../src/platform/types.ts';
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
import {
  envelope,
  extensionMessagesInPage,
  forgedAnswer,
  ignoredMessages,
  postInPage,
  type BridgeOutcome,
} from './hostile-messages.ts';
import { servePage, type PageServer } from '../support/page-server.ts';
import type { SandboxAndProxy } from '../support/stack.ts';

let extension: LoadedExtension;
let friendly: PageServer;
let hostile: PageServer;
let stack: SandboxAndProxy;
let page: Page;
let polls: Poll[];

type Outcome = BridgeOutcome & { timeout?: boolean };

/** Posts a raw message as the page and resolves with the extension's answer for `requestId` (or a timeout). */
function postRaw(message: unknown, requestId = 'attack', timeoutMs = 700): Promise<Outcome> {
  return page.evaluate(postInPage, [message, requestId, timeoutMs] as const);
}

/** How many extension-sourced messages the page has received so far. */
function extensionMessages(): Promise<number> {
  return page.evaluate(extensionMessagesInPage);
}

async function votedCount(): Promise<number> {
  return (await pollsOfFan(stack, 'sam')).filter((poll) => poll.userVote === true).length;
}

beforeAll(async () => {
  extension = await launchExtension();
  friendly = await servePage(bridgePage('Partner page'));
  hostile = await servePage(bridgePage('Hostile page'));
  stack = await startStack([friendly.url]);
  await configureExtension(extension, stack);
  // The fan signs in from the friendly page and approves it; the hostile page is never approved.
  const friendlyPage = await extension.context.newPage();
  await friendlyPage.goto(friendly.url);
  const ask = (request: unknown) =>
    friendlyPage.evaluate(
      (r) =>
        (window as unknown as { askExtension: (r: unknown, t: number) => Promise<Outcome> }).askExtension(
          r,
          30_000,
        ),
      request,
    );
  await Promise.all([
    ask({ type: 'sign-in', tracking: {} }),
    completeConsent(extension.context, 'allow', 'sam'),
  ]);
  await Promise.all([ask({ type: 'connect' }), answerApproval(extension.context, true)]);
  await friendlyPage.close();
  polls = await pollsOfFan(stack, 'sam');
  page = await extension.context.newPage();
  await page.goto(hostile.url);
});

afterAll(async () => {
  await extension.close();
  await stack.close();
  await friendly.close();
  await hostile.close();
});

describe('a hostile page', () => {
  it('gets nothing from forged, malformed or out-of-list messages (attempts 1-14)', async () => {
    for (const { message, requestId } of ignoredMessages(polls[0]!, stack.sandbox.apiUrl)) {
      expect(await postRaw(message, requestId)).toEqual({ timeout: true });
    }
    // A forged answer: the page hears only its own message; the extension neither acts nor answers.
    const before = await extensionMessages();
    await postRaw(forgedAnswer, 'none');
    expect(await extensionMessages()).toBe(before + 1);
  });

  it('cannot read poll views or vote before the fan approved it (attempts 15-17)', async () => {
    const poll = polls[0]!;
    expect(await postRaw(envelope({ type: 'poll-view', pollId: poll.id }))).toMatchObject({
      ok: false,
      error: { code: 'site_not_approved' },
    });
    expect(
      await postRaw(envelope({ type: 'vote', pollId: poll.id, answerId: poll.answers[0]!.id })),
    ).toMatchObject({
      ok: false,
      error: { code: 'site_not_approved' },
    });
    // Sign-in while signed in opens no window and only reports the status.
    expect(await postRaw(envelope({ type: 'sign-in', tracking: {} }))).toEqual({
      ok: true,
      result: { type: 'sign-in', status: { signedIn: true, siteApproved: false } },
    });
  });

  it('is denied by the fan, and then rate-limited when it keeps asking (attempts 18-21)', async () => {
    for (let prompt = 0; prompt < 3; prompt += 1) {
      const [outcome] = await Promise.all([
        postRaw(envelope({ type: 'connect' }), 'attack', 15_000),
        answerApproval(extension.context, false),
      ]);
      expect(outcome).toEqual({
        ok: true,
        result: { type: 'connect', status: { signedIn: true, siteApproved: false } },
      });
    }
    expect(await postRaw(envelope({ type: 'connect' }))).toMatchObject({
      ok: false,
      error: { code: 'rate_limited' },
    });
  });

  it('cannot flood the extension (attempt 22)', async () => {
    const outcomes = await page.evaluate(async () => {
      const ask = (window as unknown as { askExtension: (r: unknown, t: number) => Promise<Outcome> })
        .askExtension;
      return Promise.all(Array.from({ length: 200 }, () => ask({ type: 'status' }, 5000)));
    });
    expect(outcomes.some((outcome) => outcome.error?.code === 'rate_limited')).toBe(true);
  });

  it('replays answers it saw, to no effect (attempt 23)', async () => {
    const before = await extensionMessages();
    const replayed = await page.evaluate(() => {
      const seen = (window as unknown as { seen: ({ source?: string } | null)[] }).seen.filter(
        (m) => m?.source === 'fan-polls-extension',
      );
      for (const answer of seen.slice(0, 20)) window.postMessage(answer, '*');
      return Math.min(seen.length, 20);
    });
    expect(replayed).toBeGreaterThan(0);
    await postRaw(envelope({ type: 'hello' }), 'sync'); // the bridge answers in order: this one comes after
    // Only the replayed messages themselves and the hello answer arrive; nothing answers the replays.
    expect(await extensionMessages()).toBe(before + replayed + 1);
  });

  it('finds no extension internals and no token anywhere it can look (attempts 24-30)', async () => {
    const found = await page.evaluate(
      async ([id]) => {
        const report: Record<string, unknown> = {};
        report['chromeRuntimeId'] =
          (window as unknown as { chrome?: { runtime?: { id?: string } } }).chrome?.runtime?.id ?? null;
        for (const path of ['popup.html', 'manifest.json', 'content/page-bridge.iife.js', 'approve.html']) {
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
        report['caches'] = JSON.stringify(await caches.keys());
        report['globals'] = Object.keys(window).filter((key) => /fan|token|vault/i.test(key));
        report['dom'] = document.documentElement.outerHTML;
        report['seen'] = JSON.stringify((window as unknown as { seen: unknown[] }).seen);
        return report;
      },
      [extension.id] as const,
    );
    expect(found['chromeRuntimeId']).toBeNull();
    for (const path of ['popup.html', 'manifest.json', 'content/page-bridge.iife.js', 'approve.html']) {
      expect(found[path]).toBe('blocked');
    }
    expect(found['globals']).toEqual([]);
    expect(found['databases']).toBe('[]');
    expect(JSON.stringify(found)).not.toContain(canaryTokenPrefix);
  });

  it('cast no vote in all of this', async () => {
    expect(await votedCount()).toBe(polls.filter((poll) => poll.userVote === true).length);
  });
});
