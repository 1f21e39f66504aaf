// A fan signs in from a card whose page is on another site than the partner proxy (the demo page on
// http://localhost, the proxy on http://127.0.0.1). The sign-in popup is a top-level window on the proxy's site, so
// its session cookie (`Partitioned`) lands in the proxy site's partition; only the popup's handoff code, redeemed
// from the card's own page, gives the card a cookie in the page site's partition. Run in two Chromium cookie
// settings, each measured first rather than assumed.
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, FrameLocator, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { proxyRoutes } from '../../src/contracts/proxy-contract.ts';
import { sessionCookieName } from '../../src/proxy/session-cookie.ts';
import { launchFreshProfile } from '../support/chromium.ts';
import { demoCardVoteUrl } from './demo-card-urls.ts';
import { recordFanPosts } from './widget-fan-page.ts';
import { probeCrossSiteCookies } from '../support/cross-site-cookies.ts';
import { ensureWidgetBuilt, launchChromium, startWidgetStack, type WidgetStack } from './widget-stack.ts';

interface FanBrowsers {
  /** A browser profile of a new fan: no cookies yet. */
  newFan(): Promise<BrowserContext>;
  close(): Promise<void>;
}

interface CookieSetting {
  readonly name: string;
  readonly thirdPartyCookies: 'blocked' | 'allowed';
  start(): Promise<FanBrowsers>;
}

const settings: readonly CookieSetting[] = [
  {
    // What every other browser test uses: `browser.newContext()` is an off-the-record profile.
    name: 'off-the-record context (browser.newContext), third-party cookies blocked',
    thirdPartyCookies: 'blocked',
    async start() {
      const browser: Browser = await launchChromium();
      return {
        newFan: () => browser.newContext({ viewport: { width: 1280, height: 900 } }),
        close: () => browser.close(),
      };
    },
  },
  {
    name: 'regular profile with third-party cookies allowed (cookie_controls_mode 0)',
    thirdPartyCookies: 'allowed',
    start() {
      // One folder for this setting's profiles, removed once every browser on them is closed.
      const root = mkdtempSync(join(tmpdir(), 'fan-polls-profiles-'));
      const opened: BrowserContext[] = [];
      return Promise.resolve({
        async newFan() {
          const context = await launchFreshProfile(join(root, String(opened.length)), 'allowed');
          opened.push(context);
          return context;
        },
        async close() {
          await Promise.all(opened.map((context) => context.close()));
          await rm(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
        },
      });
    },
  },
];

describe.each(settings)('signing in from a card on another site than the proxy, $name', (setting) => {
  let stack: WidgetStack;
  let browsers: FanBrowsers;

  beforeAll(async () => {
    ensureWidgetBuilt();
    // No simulated fans: nobody else votes as sam while the tests run.
    stack = await startWidgetStack({ simulate: false, crossSite: true });
    browsers = await setting.start();
  });

  afterAll(async () => {
    await browsers.close();
    await stack.close();
  });

  interface FanPage {
    context: BrowserContext;
    page: Page;
    /** POSTs to the proxy's vote route, from any frame of the page. */
    votePosts: string[];
    /** POSTs to the proxy's session handoff route (which refuses any but the Origin that started the sign-in). */
    handoffPosts: string[];
    /** Events the page's cards dispatched (`name` or `name:stage`), and `fan-poll-error` codes. */
    events(): Promise<string[]>;
  }

  /** The demo page on localhost in a new fan's profile, recording the card events of the page. */
  async function openDemo(): Promise<FanPage> {
    const context = await browsers.newFan();
    const page = await context.newPage();
    const { votePosts, handoffPosts } = recordFanPosts(page);
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { cardEvents: string[] }).cardEvents = seen;
      for (const name of ['fan-poll-sign-in', 'fan-poll-vote', 'fan-poll-voted', 'fan-poll-error'])
        document.addEventListener(name, (event) => {
          const detail = (event as CustomEvent<{ stage?: string; code?: string }>).detail;
          const suffix = detail.stage ?? detail.code;
          seen.push(suffix ? `${name}:${suffix}` : name);
        });
    });
    await page.goto(stack.demo.url);
    const events = () => page.evaluate(() => (window as unknown as { cardEvents: string[] }).cardEvents);
    return { context, page, votePosts, handoffPosts, events };
  }

  /** Waits until `card` asks a signed-out fan to sign in (its voting part loaded and found no session). */
  async function waitSignedOut(card: Locator): Promise<void> {
    await card
      .locator('[part="button"]:not([aria-disabled="true"])', { hasText: 'Sign in to vote' })
      .waitFor();
  }

  /** Clicks "Sign in to vote" on `card`, signs `username` in on the consent page, waits for the popup to close. */
  async function signInFromCard(context: BrowserContext, card: Locator, username: string): Promise<void> {
    const [popup] = await Promise.all([
      context.waitForEvent('page'),
      card.getByRole('button', { name: 'Sign in to vote' }).click(),
    ]);
    await popup.getByLabel('Username').waitFor();
    expect(new URL(popup.url()).origin).toBe(stack.sandbox.authUrl);
    await popup.getByLabel('Username').fill(username);
    await popup.getByLabel('Password').fill('fan-polls');
    await Promise.all([
      popup.waitForEvent('close'),
      popup.getByRole('button', { name: 'Sign in and allow' }).click(),
    ]);
  }

  /** Picks the card's second answer and votes; resolves once the card says the vote is in. */
  async function voteForSecondAnswer(card: Locator): Promise<void> {
    const vote = card.getByRole('button', { name: 'Vote', exact: true });
    await vote.waitFor();
    await vote.click();
    await expect
      .poll(() => card.locator('[part="actions"] .note').textContent(), { timeout: 15_000 })
      .toMatch(/^You voted for .+ \(.+\)$/);
    expect(await card.locator('[part="actions"] button').count()).toBe(0);
  }

  /** The partition keys of the proxy's session cookies in the fan's profile, sorted. */
  async function sessionPartitions(context: BrowserContext): Promise<(string | undefined)[]> {
    const cookies = await context.cookies(stack.proxy.url);
    return cookies
      .filter((cookie) => cookie.name === sessionCookieName)
      .map((cookie) => cookie.partitionKey)
      .sort();
  }

  /** What the proxy's session route answers a credentialed fetch from `page` (the demo page's partition). */
  function sessionSeenBy(page: Page): Promise<unknown> {
    return page.evaluate(async (url) => {
      const response = await fetch(url, { credentials: 'include' });
      return (await response.json()) as unknown;
    }, `${stack.proxy.url}${proxyRoutes.session}`);
  }

  const demoSite = (): string => `http://${new URL(stack.demo.url).hostname}`;
  const proxySite = (): string => `http://${new URL(stack.proxy.url).hostname}`;
  const upstreamVotes = (): number =>
    stack.upstream.filter((request) => request.method === 'POST' && request.path.endsWith('/vote')).length;

  it(`runs where the proxy's cookies are third-party and partitioned cookies stay in their partition (third-party cookies ${setting.thirdPartyCookies})`, async () => {
    expect(demoSite()).toBe('http://localhost');
    expect(proxySite()).toBe('http://127.0.0.1');
    const context = await browsers.newFan();
    expect(await probeCrossSiteCookies(context)).toEqual({
      thirdPartyCookiesSent: setting.thirdPartyCookies === 'allowed',
      partitionedCookieSent: false,
    });
    await context.close();
  });

  it('signs a fan in through the popup, redeems the handoff once for a cookie of the page’s partition, and votes once', async () => {
    const fan = await openDemo();
    const card = fan.page.locator('fan-poll').first();
    await waitSignedOut(card);
    await card.locator('[part~="answer"]').nth(1).locator('input').check();
    await signInFromCard(fan.context, card, 'sam');
    const upstreamBefore = upstreamVotes();
    await voteForSecondAnswer(card);

    expect(fan.handoffPosts).toEqual([`${stack.proxy.url}${proxyRoutes.sessionHandoff}`]);
    expect(fan.votePosts).toEqual([demoCardVoteUrl(stack.proxy.url, (await card.getAttribute('poll-id'))!)]);
    expect(upstreamVotes() - upstreamBefore).toBe(1);
    // Two session cookies now: the popup's in the proxy site's partition, the handoff's in the page site's.
    expect(await sessionPartitions(fan.context)).toEqual([demoSite(), proxySite()].sort());
    expect(await sessionSeenBy(fan.page)).toMatchObject({ signedIn: true });
    expect(await fan.events()).toEqual([
      'fan-poll-sign-in:started',
      'fan-poll-sign-in:signed-in',
      'fan-poll-vote',
      'fan-poll-voted',
    ]);
    await fan.context.close();
  });

  it(
    setting.thirdPartyCookies === 'allowed'
      ? 'leaves the card signed out when the handoff is blocked: the popup’s cookie is partitioned, not merely blocked'
      : 'leaves the card signed out when the handoff is blocked: without it the popup’s cookie never reaches the card',
    async () => {
      const fan = await openDemo();
      await fan.page.route(
        (url) => url.pathname === proxyRoutes.sessionHandoff,
        (route) => route.abort(),
      );
      const card = fan.page.locator('fan-poll').first();
      await waitSignedOut(card);
      const upstreamBefore = upstreamVotes();
      await signInFromCard(fan.context, card, 'sam');

      const status = card.locator('[part="status"]');
      await expect.poll(() => status.textContent()).toBe('Sign-in did not work. Please try again.');
      expect(await card.getByRole('button', { name: 'Sign in to vote' }).getAttribute('aria-disabled')).toBe(
        'false',
      );
      expect(fan.handoffPosts).toHaveLength(1);
      expect(await fan.events()).toEqual([
        'fan-poll-sign-in:started',
        'fan-poll-sign-in:failed',
        'fan-poll-error:sign-in-failed',
      ]);
      // The popup did sign the fan in, in the proxy site's partition: a top-level visit to the proxy sees it...
      expect(await sessionPartitions(fan.context)).toEqual([proxySite()]);
      const proxyTab = await fan.context.newPage();
      await proxyTab.goto(`${stack.proxy.url}${proxyRoutes.session}`);
      expect(JSON.parse((await proxyTab.locator('body').textContent()) ?? '')).toMatchObject({
        signedIn: true,
      });
      await proxyTab.close();
      // ...while the card's page, on the other site, gets no session from the same profile.
      expect(await sessionSeenBy(fan.page)).toEqual({ signedIn: false });
      expect(fan.votePosts).toEqual([]);
      expect(upstreamVotes() - upstreamBefore).toBe(0);
      // Control: the popup's session as an unpartitioned cookie reaches the card's page exactly when third-party
      // cookies are allowed. Where they are, the signed-out answer above is the partition's doing.
      const [popupCookie] = (await fan.context.cookies(stack.proxy.url)).filter(
        (cookie) => cookie.name === sessionCookieName,
      );
      // Over CDP with only a URL: a host-only cookie, as `__Host-` needs (Playwright's addCookies sets a Domain).
      const cdp = await fan.context.newCDPSession(fan.page);
      await cdp.send('Network.setCookie', {
        name: sessionCookieName,
        value: popupCookie!.value,
        url: `${stack.proxy.url}/`,
        path: '/',
        httpOnly: true,
        secure: true,
        sameSite: 'None',
      });
      await cdp.detach();
      expect(await sessionPartitions(fan.context)).toEqual([proxySite(), undefined]);
      expect(await sessionSeenBy(fan.page)).toMatchObject({
        signedIn: setting.thirdPartyCookies === 'allowed',
      });
      await fan.context.close();
    },
  );

  it('signs in and votes from the iframe banner (<fan-poll-frame>) on the localhost page', async () => {
    const fan = await openDemo();
    const iframe = fan.page.locator('fan-poll-frame iframe');
    await iframe.scrollIntoViewIfNeeded();
    // The iframe page is the demo's own (`/widget/embed/poll.html`): same site as the page, another site than the proxy.
    expect(new URL((await iframe.getAttribute('src'))!).origin).toBe(new URL(stack.demo.url).origin);
    const frame: FrameLocator = fan.page.frameLocator('fan-poll-frame iframe');
    const card = frame.locator('fan-poll');
    await waitSignedOut(card);
    await card.locator('[part~="answer"]').nth(1).locator('input').check();
    await signInFromCard(fan.context, card, 'sam');
    const upstreamBefore = upstreamVotes();
    await voteForSecondAnswer(card);

    expect(fan.handoffPosts).toEqual([`${stack.proxy.url}${proxyRoutes.sessionHandoff}`]);
    expect(fan.votePosts).toHaveLength(1);
    expect(upstreamVotes() - upstreamBefore).toBe(1);
    // The card's events reach the host page through <fan-poll-frame>.
    expect(await fan.events()).toEqual([
      'fan-poll-sign-in:started',
      'fan-poll-sign-in:signed-in',
      'fan-poll-vote',
      'fan-poll-voted',
    ]);
    await fan.context.close();
  });
});
