// Sign-in without a pop-up, as a fan in an in-app browser or a WebView meets it: a phone-sized touch session whose
// `window.open` gives no window (an init script stands in for the in-app browser), on the README's recommended card
// (the demo page on another site than the proxy). The card offers "Continue to sign in"; the page goes to the proxy,
// the platform's consent page and back to the same address; the fan's pick is still there, nothing is cast until the
// fan taps Vote, and the platform records exactly that one vote. The banner (its card in an iframe on the proxy's
// origin) does the same from its frame. Each state is saved under `dist/screenshots/redirect-sign-in/`.
import type { Browser, BrowserContext, FrameLocator, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { proxyRoutes } from '../../src/contracts/proxy-contract.ts';
import { cardReturnKey, framePickKey, frameReturnKey } from '../../src/contracts/sign-in-return.ts';
import { cleanTracking } from '../../src/contracts/tracking.ts';
import { recordedAuthorizations } from '../../src/sandbox/oauth/oauth-state.ts';
import { recordedAnswerIds } from '../support/recorded-vote.ts';
import { screenshotPath } from '../support/screenshots.ts';
import { waitUntil } from '../support/wait-until.ts';
import { startWebKitDriver, webkitInstalled, type WebKitDriver } from '../support/webkit.ts';
import { cardTargets, readCard } from './journey/card-reading.ts';
import { cookiesBlockedMessage } from './journey/journey-cases.ts';
import { pickAnswer, tapVoteUntilTaken } from './journey/sign-in-and-vote.ts';
import { webkitFanBrowser } from './journey/webkit-fan-browser.ts';
import { demoCardSignInUrl, demoCardVoteUrl } from './demo-card-urls.ts';
import { recordFanPosts } from './widget-fan-page.ts';
import { ensureWidgetBuilt, launchChromium, startWidgetStack, type WidgetStack } from './widget-stack.ts';

const shot = (name: string) => screenshotPath(`redirect-sign-in/${name}.png`);

describe('signing in without a pop-up on a phone whose browser opens no window (Chromium)', () => {
  let stack: WidgetStack;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    ensureWidgetBuilt();
    // The demo page on http://localhost, the proxy (and the banner's page) on http://127.0.0.1: two sites.
    stack = await startWidgetStack({ simulate: false, crossSite: true, bannerFrom: 'proxy' });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser.close();
    await stack.close();
  });

  /** The demo page's address as the browser writes it. */
  const demoPage = (): string => new URL(stack.demo.url).href;

  beforeEach(async () => {
    stack.sandbox.sandbox.reset();
    await Promise.all(contexts.splice(0).map((context) => context.close()));
  });

  interface Phone {
    readonly page: Page;
    readonly votePosts: string[];
    readonly handoffPosts: string[];
    /** The addresses with a sign-in marker the page was sent to, in order (before the widget cleans them). */
    readonly wayBack: string[];
    /** The proxy's sign-in addresses the page was sent to, in order. */
    readonly signIns: string[];
    /** The card events of the page and its frames (`name:via:stage`, or `fan-poll-error:code`). */
    events(): Promise<string[]>;
  }

  /** A fresh phone: 390 x 844, touch, and a `window.open` that gives no window, in every frame. */
  async function phone(): Promise<Phone> {
    const context = await browser.newContext({
      isMobile: true,
      hasTouch: true,
      viewport: { width: 390, height: 844 },
    });
    contexts.push(context);
    const page = await context.newPage();
    await page.addInitScript(() => {
      window.open = () => null;
      const seen: string[] = [];
      (window as unknown as { cardEvents: string[] }).cardEvents = seen;
      document.addEventListener('fan-poll-sign-in', (event) => {
        const { via, stage } = (event as Event & { detail: { via: string; stage: string } }).detail;
        seen.push(`fan-poll-sign-in:${via}:${stage}`);
      });
      document.addEventListener('fan-poll-error', (event) => {
        seen.push(`fan-poll-error:${(event as Event & { detail: { code: string } }).detail.code}`);
      });
    });
    const wayBack: string[] = [];
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame() && /#.*fan-polls-/.test(frame.url())) wayBack.push(frame.url());
    });
    const signIns: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === proxyRoutes.signIn) signIns.push(request.url());
    });
    const events = () => page.evaluate(() => (window as unknown as { cardEvents: string[] }).cardEvents);
    return { page, wayBack, signIns, events, ...recordFanPosts(page) };
  }

  /** The card's pieces a fan taps or reads. */
  function cardParts(card: Locator) {
    return {
      // The whole label: "Vote" must not find "Sign in to vote" (`hasText` alone matches any part, in any case).
      button: (name: string) =>
        card.locator('[part="button"]:not([aria-disabled="true"])', {
          hasText: new RegExp(`^\\s*${escape(name)}\\s*$`),
        }),
      answer: (nth: number) => card.locator('[part~="answer"] input').nth(nth),
      status: card.locator('[part="status"]'),
      note: card.locator('[part="actions"] .note'),
    };
  }

  /** Scrolls the card's action area to the middle of the screen, for a screenshot of what the fan reads there. */
  async function showActions(card: Locator): Promise<void> {
    await card.locator('[part="actions"]').evaluate((node) => {
      node.scrollIntoView({ block: 'center' });
    });
  }

  /**
   * Taps the card's Vote, waits for the card to show the vote (its action area then in view), and answers the
   * answers the platform recorded for sam in `pollId`, once it has any.
   */
  async function tapVote(card: Locator, pollId: string): Promise<string[]> {
    const parts = cardParts(card);
    await parts.button('Vote').tap();
    await waitUntil(
      async () => (await parts.note.textContent())?.startsWith('You voted for'),
      'the vote to show',
    );
    await showActions(card);
    return waitUntil(async () => {
      const ids = await recordedAnswerIds(stack.sandbox.sandbox, pollId, 'sam');
      return ids.length > 0 ? ids : undefined;
    }, 'the platform to record the vote');
  }

  /** Once `card` offers sign-in, taps its second answer until the card shows it picked: its poll and answer. */
  async function tapSecondAnswer(card: Locator): Promise<{ pollId: string; answerId: string }> {
    const parts = cardParts(card);
    await parts.button('Sign in to vote').waitFor();
    const pollId = (await card.getAttribute('poll-id')) ?? '';
    const answerId = (await parts.answer(1).getAttribute('value')) ?? '';
    await parts.answer(1).tap();
    await waitUntil(async () => (await pickedAnswer(card)) === answerId, 'the card to take the pick');
    return { pollId, answerId };
  }

  async function pickedAnswer(card: Locator): Promise<string | undefined> {
    return card.evaluate(
      (host) =>
        [...(host.shadowRoot?.querySelectorAll<HTMLInputElement>('[part~="answer"] input') ?? [])].find(
          (input) => input.checked,
        )?.value,
    );
  }

  /** Signs `sam` in on the sandbox's consent page, with taps, and waits for the page to come back to `pageUrl`. */
  async function consentAs(page: Page, pageUrl: string, name: string): Promise<void> {
    await waitUntil(
      () => Promise.resolve(page.url().startsWith(stack.sandbox.authUrl)),
      'the platform’s consent page',
    );
    await page.getByLabel('Username').fill('sam');
    await page.getByLabel('Password').fill('fan-polls');
    await page.screenshot({ path: shot(`${name}-3-consent`) });
    await page.getByRole('button', { name: 'Sign in and allow' }).tap();
    // Back on the page, the sign-in's marker already out of the address bar.
    await waitUntil(
      () => Promise.resolve(page.url() === pageUrl),
      `the page to come back, its address clean (${pageUrl})`,
      20_000,
    ).catch((error: unknown) => {
      throw new Error(`${String(error)}; at ${page.url()}`);
    });
  }

  const demoTracking = (element: Locator) =>
    element.evaluate((host) =>
      Object.fromEntries(
        ['referrer', 'campaign', 'param1', 'param2', 'param3'].map((name) => [name, host.getAttribute(name)]),
      ),
    );

  it('signs the fan in from the page’s card by the page itself, the pick kept, and votes once on the tap', async () => {
    const fan = await phone();
    const { page } = fan;
    await page.goto(stack.demo.url);
    const card = page.locator('article fan-poll');
    const parts = cardParts(card);
    const { pollId, answerId } = await tapSecondAnswer(card);
    await showActions(card);
    await page.screenshot({ path: shot('chromium-card-1-picked') });

    // The in-app browser gives no window: the card offers the way without one.
    await parts.button('Sign in to vote').tap();
    await parts.button('Continue to sign in').waitFor();
    expect(await parts.status.textContent()).toContain('This browser did not open the sign-in window.');
    await showActions(card);
    await page.screenshot({ path: shot('chromium-card-2-continue') });

    expect(await fan.events()).toEqual([
      'fan-poll-sign-in:popup:started',
      'fan-poll-sign-in:popup:failed',
      'fan-poll-error:popup-blocked',
    ]);

    await parts.button('Continue to sign in').tap();
    await consentAs(page, demoPage(), 'chromium-card');
    // The callback sent the page back to exactly its address, the code in the fragment.
    expect(fan.wayBack).toHaveLength(1);
    expect(fan.wayBack[0]).toMatch(new RegExp(`^${escape(demoPage())}#${cardReturnKey}=[\\w-]{43}$`));
    // The page went to the sign-in from the card's poll, with its way back and the card's tracking parameters.
    expect(fan.signIns).toEqual([
      demoCardSignInUrl(stack.proxy.url, pollId, { origin: new URL(demoPage()).origin, return: demoPage() }),
    ]);

    // Signed in, the pick shown, nothing cast.
    await parts.button('Vote').waitFor();
    expect(await pickedAnswer(card)).toBe(answerId);
    expect(fan.votePosts).toEqual([]);
    expect(await recordedAnswerIds(stack.sandbox.sandbox, pollId, 'sam')).toEqual([]);
    expect(fan.handoffPosts).toEqual([`${stack.proxy.url}${proxyRoutes.sessionHandoff}`]);
    await showActions(card);
    await page.screenshot({ path: shot('chromium-card-4-back-signed-in') });

    expect(await tapVote(card, pollId)).toEqual([answerId]);
    await page.screenshot({ path: shot('chromium-card-5-voted') });
    expect(fan.votePosts).toEqual([demoCardVoteUrl(stack.proxy.url, pollId)]);

    // The sign-in's authorize request carried the card's tracking parameters.
    const authorizations = recordedAuthorizations(stack.sandbox.sandbox.state);
    expect(authorizations).toHaveLength(1);
    expect(authorizations[0]).toMatchObject({
      outcome: 'allowed',
      tracking: cleanTracking(await demoTracking(card)),
    });
    expect(authorizations[0]?.tracking).toMatchObject({
      referrer: 'matchday-live',
      campaign: 'spring-derby',
    });
    // On the page as it came back (its own document): the sign-in's outcome, from the card it was for.
    expect(await fan.events()).toEqual(['fan-poll-sign-in:redirect:signed-in']);

    // The same code again, as another browser opening the address the proxy sent: refused, and nothing cast.
    const replay = await phone();
    await replay.page.goto(fan.wayBack[0] ?? '');
    const replayed = cardParts(replay.page.locator('article fan-poll'));
    await replayed.button('Continue to sign in').waitFor();
    expect(await replayed.status.textContent()).toBe('Sign-in did not work. Please try again.');
    expect(replay.page.url()).toBe(demoPage());
    expect(replay.handoffPosts).toHaveLength(1);
    expect(replay.votePosts).toEqual([]);
    expect(await recordedAnswerIds(stack.sandbox.sandbox, pollId, 'sam')).toEqual([answerId]);
    expect(await replay.events()).toEqual([
      'fan-poll-sign-in:redirect:failed',
      'fan-poll-error:sign-in-failed',
    ]);
    await showActions(replay.page.locator('article fan-poll'));
    await replay.page.screenshot({ path: shot('chromium-card-6-replayed-code') });

    // And in the fan's own page, signed out, loaded again with the same fragment: refused, nothing cast.
    await card.getByRole('button', { name: 'Sign out' }).tap();
    // This browser opens no window: the card keeps offering the way without one.
    await parts.button('Continue to sign in').waitFor();
    // (Setting the address first is a navigation within the document; the reload loads it with that fragment.)
    await page.goto(fan.wayBack[0] ?? '');
    await page.reload();
    await parts.status.waitFor();
    expect(await parts.status.textContent()).toBe('Sign-in did not work. Please try again.');
    await parts.button('Continue to sign in').waitFor();
    expect(page.url()).toBe(demoPage());
    expect(fan.handoffPosts).toHaveLength(2);
    expect(fan.votePosts).toHaveLength(1);
    await showActions(card);
    await page.screenshot({ path: shot('chromium-card-7-reloaded-same-fragment') });
    expect(await recordedAnswerIds(stack.sandbox.sandbox, pollId, 'sam')).toEqual([answerId]);
  });

  it('signs the fan in from the banner’s frame by the top-level page, and votes once on the tap', async () => {
    const fan = await phone();
    const { page } = fan;
    await page.goto(stack.demo.url);
    const frame: FrameLocator = page.frameLocator('fan-poll-frame iframe');
    const card = frame.locator('fan-poll');
    const parts = cardParts(card);
    const { pollId, answerId } = await tapSecondAnswer(card);
    await parts.button('Sign in to vote').tap();
    await parts.button('Continue to sign in').waitFor();
    await showActions(card);
    await page.screenshot({ path: shot('chromium-banner-2-continue') });

    // From inside the frame, with the fan's tap: the top-level page goes to the sign-in.
    await parts.button('Continue to sign in').tap();
    await consentAs(page, demoPage(), 'chromium-banner');
    // The banner's pick travels in its way back (its third-party frame has no storage here), then the frame's code.
    const pick = encodeURIComponent(JSON.stringify({ pollId, answerId }));
    expect(fan.wayBack[0]).toMatch(
      new RegExp(`^${escape(demoPage())}#${framePickKey}=${escape(pick)}&${frameReturnKey}=[\\w-]{43}$`),
    );

    await parts.button('Vote').waitFor();
    expect(await pickedAnswer(card)).toBe(answerId);
    expect(fan.votePosts).toEqual([]);
    // The frame (on the proxy's origin) redeemed its code; the page's own cards spent nothing.
    expect(fan.handoffPosts).toEqual([`${stack.proxy.url}${proxyRoutes.sessionHandoff}`]);
    await showActions(card);
    await page.screenshot({ path: shot('chromium-banner-4-back-signed-in') });

    expect(await tapVote(card, pollId)).toEqual([answerId]);
    expect(fan.votePosts).toHaveLength(1);
    await page.screenshot({ path: shot('chromium-banner-5-voted') });
    const banner = page.locator('fan-poll-frame');
    expect(recordedAuthorizations(stack.sandbox.sandbox.state).at(-1)?.tracking).toEqual(
      cleanTracking(await demoTracking(banner)),
    );
  });
});

/** `text` as a literal inside a regular expression. */
function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

// WebKitGTK (MiniBrowser through WebKitWebDriver, its default policy refusing third-party cookies as Safari does),
// in a phone-sized window (asked for 390 x 844, MiniBrowser keeps a page about 450 px wide; WebKitGTK's WebDriver has
// no touch or mobile emulation), with `window.open` made to give no window once the page is loaded (WebDriver classic
// has no init scripts; the card looks `window.open` up at the click). On the proxy's site the whole trip works. On another site
// over plain http, where WebKit drops `Secure` cookies, the page's handoff cannot set the proxy's cookie there, which is
// the `cookies-blocked` sentence, as from the pop-up; over https the trip's first-party visit lets the card keep it.
describe.each([
  { site: 'same-site', crossSite: false, https: false, expected: 'voted' },
  { site: 'cross-site', crossSite: true, https: false, expected: cookiesBlockedMessage },
  { site: 'cross-site-https', crossSite: true, https: true, expected: 'voted' },
] as const)(
  'signing in without a pop-up in WebKitGTK, page $site with the proxy',
  ({ site, crossSite, https, expected }) => {
    let stack: WidgetStack;
    let driver: WebKitDriver | undefined;

    beforeAll(async () => {
      ensureWidgetBuilt();
      stack = await startWidgetStack({ simulate: false, crossSite, https, bannerFrom: 'proxy' });
    });

    afterAll(async () => {
      await driver?.close();
      await stack.close();
    });

    it(`ends with ${expected === 'voted' ? 'the vote recorded once' : 'the cookies-blocked sentence'}`, async () => {
      if (!webkitInstalled()) throw new Error('WebKitWebDriver is not installed (see .ci/run)');
      driver ??= await startWebKitDriver();
      const browser = await webkitFanBrowser(driver, {
        acceptInsecureCerts: https,
        windowSize: { width: 390, height: 844 },
      });
      const name = `webkit-${site}`;
      try {
        const card = cardTargets('article fan-poll');
        const continueSignIn = {
          chain: 'article fan-poll >> [part="button"]',
          hasText: 'Continue to sign in',
        };
        const page = await browser.open(stack.demo.url);
        const read = () => page.evaluate(readCard, card.card);
        const address = () => page.evaluate(() => location.href, null);
        /** A screenshot of the window with the card's action area in its middle. */
        const shoot = async (state: string) => {
          await page.evaluate((chain) => {
            document.querySelector(chain)?.shadowRoot?.querySelector('[part="actions"]')?.scrollIntoView({
              block: 'center',
            });
            return true;
          }, card.card);
          await page.screenshot(shot(`${name}-${state}`));
        };
        await page.evaluate(() => {
          window.open = () => null;
          return true;
        }, null);
        await waitUntil(() => page.has(card.signIn), 'the card to offer sign-in');
        const before = await read();
        const answerId = await pickAnswer(page, card, 1);
        await page.click(card.signIn);
        await waitUntil(() => page.has(continueSignIn), 'the card to offer "Continue to sign in"');
        await shoot('2-continue');

        await page.click(continueSignIn);
        await waitUntil(async () => (await address()).startsWith(stack.sandbox.authUrl), 'the consent page');
        await waitUntil(() => page.has({ chain: '#username' }), 'the consent form');
        await page.fill({ chain: '#username' }, 'sam');
        await page.fill({ chain: '#password' }, 'fan-polls');
        await page.screenshot(shot(`${name}-3-consent`));
        await page.click({ chain: 'button.allow' });
        const demoPage = new URL(stack.demo.url).href;
        await waitUntil(
          async () => (await address()) === demoPage,
          'the page to come back, its address clean',
          20_000,
        );
        const after = await waitUntil(async () => {
          const state = await read();
          return state.enabled.includes('Vote') || state.status !== '' ? state : undefined;
        }, 'the card to be signed in or to say why not');
        await shoot('4-back');
        expect(after.picked).toBe(answerId);
        expect(await recordedAnswerIds(stack.sandbox.sandbox, before.pollId, 'sam')).toEqual([]);
        // The sign-in's authorize request carried the card's tracking parameters.
        const tracking = await page.evaluate((chain) => {
          const host = document.querySelector(chain);
          return Object.fromEntries(
            ['referrer', 'campaign', 'param1', 'param2', 'param3'].map((name) => [
              name,
              host?.getAttribute(name) ?? null,
            ]),
          );
        }, card.card);
        expect(tracking.campaign).toBeTruthy();
        expect(recordedAuthorizations(stack.sandbox.sandbox.state).at(-1)?.tracking).toEqual(
          cleanTracking(tracking),
        );
        if (expected !== 'voted') {
          expect(after.status).toBe(expected);
          return;
        }
        expect(after.status).toBe('');
        await tapVoteUntilTaken(page, card, read);
        await waitUntil(
          async () => (await read()).note.includes('You voted for'),
          'the card to show the vote',
        );
        const recorded = await waitUntil(async () => {
          const ids = await recordedAnswerIds(stack.sandbox.sandbox, before.pollId, 'sam');
          return ids.length > 0 ? ids : undefined;
        }, 'the platform to record the vote');
        expect(recorded).toEqual([answerId]);
        await shoot('5-voted');
      } finally {
        await browser.close();
      }
    });
  },
);
