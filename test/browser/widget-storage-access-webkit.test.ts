// WebKitGTK over https, the banner (an iframe of the proxy's origin) on another site than the proxy. With WebKitGTK's
// own default (`no-third-party`, no tracking prevention) the sign-in's visit to the proxy's site lets the frame use
// its cookie: the banner votes. With tracking prevention on (MiniBrowser `--enable-itp`, as Safari on every iPhone) the
// cookie does not stick; the banner says so, and the fan's next tap on "Sign in to vote" asks the browser
// (`document.requestStorageAccess()`): allowed, the banner is signed in and votes; refused, the banner keeps the
// sentence. With pop-ups refused the page's own trip to the sign-in comes first, and the same tap follows. The
// platform records each vote once; no token or session id is readable by a page's script.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { recordedAnswerIds } from '../support/recorded-vote.ts';
import { screenshotPath } from '../support/screenshots.ts';
import { waitUntil } from '../support/wait-until.ts';
import { startWebKitDriver, webkitInstalled, type WebKitDriver } from '../support/webkit.ts';
import { answerWebKitPrompt, xdotoolInstalled } from '../support/webkit-prompt.ts';
import { cardTargets, readCard } from './journey/card-reading.ts';
import type { FanWindow } from './journey/fan-browser.ts';
import { assertNothingReadable } from './journey/nothing-readable.ts';
import { cookiesBlockedMessage, storageAccessAskMessage as askMessage } from './journey/journey-cases.ts';
import { pickAnswer, signInAndVote, tapVoteUntilTaken } from './journey/sign-in-and-vote.ts';
import { webkitFanBrowser } from './journey/webkit-fan-browser.ts';
import { ensureWidgetBuilt, startWidgetStack, type WidgetStack } from './widget-stack.ts';

const banner = cardTargets('fan-poll');
const bannerFrame = { chain: 'fan-poll-frame iframe' };

let stack: WidgetStack;
let webkit: WebKitDriver;
/** The session cookies each request of the proxy carried, by path: what the proxy saw. */
const proxyCookies: { path: string; cookies: string[] }[] = [];

beforeAll(async () => {
  if (!webkitInstalled() || !xdotoolInstalled())
    throw new Error('WebKitGTK or xdotool is not installed (see .ci/run)');
  ensureWidgetBuilt();
  stack = await startWidgetStack({
    simulate: false,
    https: true,
    bannerFrom: 'proxy',
    watchProxyRequest: (head) => {
      const path = head.split(' ')[1] ?? '';
      const cookie = /\r\ncookie: ([^\r]*)/i.exec(head)?.[1] ?? '';
      proxyCookies.push({ path, cookies: cookie.split(/;\s*/).map((pair) => pair.split('=')[0] ?? '') });
    },
  });
  webkit = await startWebKitDriver();
});

afterAll(async () => {
  await webkit.close();
  await stack.close();
});

/** The browser's own window, its bars included (a WebDriver screenshot shows the page only). */
function screenOf(name: string): void {
  if (existsSync('/usr/bin/scrot'))
    execFileSync('scrot', ['-o', screenshotPath(name)], { env: { ...process.env, DISPLAY: webkit.display } });
}

async function openBanner(itp: boolean) {
  stack.sandbox.sandbox.reset();
  proxyCookies.length = 0;
  const browser = await webkitFanBrowser(webkit, { acceptInsecureCerts: true, itp });
  const page = await browser.open(stack.demo.url);
  const frame = await page.frame(bannerFrame);
  await waitUntil(() => frame.has(banner.signIn), 'the banner to offer sign-in');
  return { browser, page, frame };
}

const shooter = (page: FanWindow, name: string) => (state: string) =>
  page.screenshot(screenshotPath(`webkit-https-${name}-${state}.png`));

/** Tracking prevention on: the banner's first sign-in, whose cookie does not stick; the banner says its next tap asks. */
async function signInUnstuck(name: string) {
  const opened = await openBanner(true);
  const { browser, page, frame } = opened;
  const shot = shooter(page, name);
  try {
    const first = await signInAndVote({
      browser,
      sandbox: stack.sandbox.sandbox,
      window: frame,
      targets: banner,
      shot,
    });
    expect(first).toEqual({ kind: 'refused', message: askMessage });
  } catch (error) {
    await browser.close();
    throw error;
  }
  return { ...opened, shot };
}

it('WebKitGTK’s default policy: the banner signs in and votes, its cookie sent after the sign-in’s visit', async () => {
  const { browser, page, frame } = await openBanner(false);
  try {
    expect(await frame.evaluate(() => document.hasStorageAccess(), undefined)).toBe(false);
    const outcome = await signInAndVote({
      browser,
      sandbox: stack.sandbox.sandbox,
      window: frame,
      targets: banner,
      shot: shooter(page, 'default'),
    });
    expect(outcome.kind).toBe('voted');
    // No access was asked for (WebKit now says the frame has it, as the proxy's site has cookies); the vote carried
    // the session cookie.
    expect(proxyCookies.find((each) => /\/vote(\?|$)/.test(each.path))?.cookies).toContain(
      '__Host-fan-polls-session',
    );
    await assertNothingReadable(page, frame);
  } finally {
    await browser.close();
  }
});

it('tracking prevention on: allowed at the browser’s prompt, the banner is signed in and votes once', async () => {
  const { browser, page, frame, shot } = await signInUnstuck('itp');
  try {
    // The handoff's cookie was refused: the frame's session read after it carried none.
    expect(proxyCookies.filter((each) => each.path === '/auth/session').at(-1)?.cookies).toEqual(['']);
    const { pollId, picked } = await frame.evaluate(readCard, banner.card);
    expect(picked).not.toBe('');

    await answerWebKitPrompt(
      webkit.display,
      page,
      async () => {
        await frame.click(banner.signIn);
        screenOf('webkit-https-itp-prompt.png');
      },
      'yes',
    );
    const after = await waitUntil(async () => {
      const state = await frame.evaluate(readCard, banner.card);
      return state.enabled.includes('Vote') ? state : undefined;
    }, 'the banner to be signed in');
    expect(await frame.evaluate(() => document.hasStorageAccess(), undefined)).toBe(true);
    await shot('allowed');
    // The pick survived; one tap votes.
    expect(after.picked).toBe(picked);
    await tapVoteUntilTaken(frame, banner);
    await waitUntil(
      async () => (await frame.evaluate(readCard, banner.card)).note.includes('You voted for'),
      'the banner to show the vote',
    );
    const recorded = await waitUntil(async () => {
      const ids = await recordedAnswerIds(stack.sandbox.sandbox, pollId, 'sam');
      return ids.length > 0 ? ids : undefined;
    }, 'the platform to record the vote');
    expect(recorded).toEqual([picked]);
    expect(proxyCookies.find((each) => /\/vote(\?|$)/.test(each.path))?.cookies).toContain(
      '__Host-fan-polls-session',
    );
    await shot('voted-after-allowing');
    await assertNothingReadable(page, frame);
  } finally {
    await browser.close();
  }
});

it('tracking prevention on: refused at the browser’s prompt, the banner keeps today’s sentence', async () => {
  const { browser, page, frame, shot } = await signInUnstuck('itp-refused');
  try {
    await answerWebKitPrompt(webkit.display, page, () => frame.click(banner.signIn), 'no');
    const state = await waitUntil(async () => {
      const read = await frame.evaluate(readCard, banner.card);
      return read.status === cookiesBlockedMessage ? read : undefined;
    }, 'the banner to say the browser refused');
    expect(state.buttons).not.toContain('Vote');
    await shot('refused');
    expect(await recordedAnswerIds(stack.sandbox.sandbox, state.pollId, 'sam')).toEqual([]);
  } finally {
    await browser.close();
  }
});

it('tracking prevention on, pop-ups refused: the page’s trip to the sign-in, one tap to allow, one to vote', async () => {
  const { browser, page, frame } = await openBanner(true);
  const shot = shooter(page, 'itp-no-popup');
  const continueSignIn = { chain: 'fan-poll >> [part="button"]', hasText: 'Continue to sign in' };
  try {
    // WebDriver classic has no init script: the frame's `window.open` gives no window from now on.
    await frame.evaluate(() => {
      window.open = () => null;
      return true;
    }, null);
    const answerId = await pickAnswer(frame, banner, 1);
    const { pollId } = await frame.evaluate(readCard, banner.card);
    await frame.click(banner.signIn);
    await waitUntil(() => frame.has(continueSignIn), 'the banner to offer "Continue to sign in"');
    await frame.click(continueSignIn);
    await waitUntil(() => page.has({ chain: '#username' }), 'the consent page, top-level');
    await page.fill({ chain: '#username' }, 'sam');
    await page.fill({ chain: '#password' }, 'fan-polls');
    await page.click({ chain: 'button.allow' });
    const back = await waitUntil(async () => {
      const state = await frame.evaluate(readCard, banner.card).catch(() => undefined);
      return state?.status === askMessage ? state : undefined;
    }, 'the banner back, saying its next tap asks');
    expect(back.picked).toBe(answerId);
    await shot('back');

    await answerWebKitPrompt(webkit.display, page, () => frame.click(banner.signIn), 'yes');
    await waitUntil(
      async () => (await frame.evaluate(readCard, banner.card)).enabled.includes('Vote'),
      'the banner to be signed in',
    );
    expect(await recordedAnswerIds(stack.sandbox.sandbox, pollId, 'sam')).toEqual([]);
    await tapVoteUntilTaken(frame, banner);
    const recorded = await waitUntil(async () => {
      const ids = await recordedAnswerIds(stack.sandbox.sandbox, pollId, 'sam');
      return ids.length > 0 ? ids : undefined;
    }, 'the platform to record the vote');
    expect(recorded).toEqual([answerId]);
    await shot('voted');
    await assertNothingReadable(page, frame);
  } finally {
    await browser.close();
  }
});
