// The Firefox build in Mozilla's own tools: addons-linter (through web-ext) on dist/extension/firefox and on the store
// zip, then the add-on installed into Debian's Firefox ESR as a temporary add-on and driven over WebDriver BiDi: no
// page hears the extension until the fan connects its site from the popup; the fan signs in from a click through
// identity.launchWebAuthFlow on the sandbox's consent page, votes with confirmation in the extension's window, stays
// signed in over token refreshes (on demand and on the background's alarm); a script with no click gets no window and
// no vote, a flood gets the tab's budget, a hostile site is not heard at all and finds no token; sign-out leaves no
// token anywhere and forgets the site.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser, ElementHandle, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firefoxExtensionRedirectUri, geckoExtensionId } from '../../src/local-defaults.ts';
import type { Poll } from '../../src/platform/types.ts';
import { apiRequest, fanToken } from '../../src/sandbox/test-kit.ts';
import { canaryTokenPrefix } from '../support/canary.ts';
import {
  firefoxInstalled,
  firefoxPath,
  launchFirefoxWithExtension,
  type FirefoxWithExtension,
} from '../support/firefox.ts';
import { servePage, type PageServer } from '../support/page-server.ts';
import { startSandboxAndProxy, type SandboxAndProxy } from '../support/stack.ts';
import { viteBuild } from '../support/vite-build.ts';
import { bridgePage, busiestClub, clubListScript, pollsOfFan, votablePollsOf } from './extension-harness.ts';
import {
  envelope,
  extensionMessagesInPage,
  forgedAnswer,
  ignoredMessages,
  postInPage,
} from './hostile-messages.ts';
import { dumpExtensionStorage } from '../support/extension-storage.ts';
import { waitUntil } from '../support/wait-until.ts';
import { bridgeCapacity, floodInPage } from '../support/bridge-flood.ts';
import { clickDeep, deepElement, fillDeep } from '../support/puppeteer-deep.ts';
import { lintFirefoxAddon } from './firefox-addon-lint.ts';

const firefoxBuild = resolve(import.meta.dirname, '../../dist/extension/firefox');
const firefoxZip = resolve(import.meta.dirname, '../../dist/extension/fan-polls-firefox.zip');

/** `npm test` builds first; a lone run of this file builds the Firefox extension when it is missing. */
function ensureFirefoxBuilt(): void {
  if (!existsSync(join(firefoxBuild, 'manifest.json'))) viteBuild('extension-firefox');
}

describe('the Firefox build in Mozilla’s addons-linter', () => {
  it('has no errors and no warnings but the accepted ones, unpacked and as the store zip', async () => {
    ensureFirefoxBuilt();
    for (const sourceDir of [firefoxBuild, firefoxZip])
      expect(await lintFirefoxAddon(sourceDir)).toEqual({ errors: [], warnings: [] });
  });
});

const skipFirefox = process.env.FAN_POLLS_SKIP_FIREFOX === '1' && !firefoxInstalled();
if (skipFirefox) {
  console.warn(
    `Skipping the Firefox run: no Firefox at ${firefoxPath()} and FAN_POLLS_SKIP_FIREFOX=1 ` +
      '(install it with `apt-get install -y firefox-esr`, or point FIREFOX_PATH at one).',
  );
}

/** The add-on's moz-extension UUID, pinned through `extensions.webextensions.uuids` so the proxy can list it. */
const extensionUuid = '3f1b6a52-7c4e-4d1a-9e0b-5a2c8d7e6f10';
const accessTokenSeconds = 4;

type Outcome = { ok: boolean; result?: unknown; error?: { code: string; message: string } };

describe.skipIf(skipFirefox)('the Firefox build in Firefox ESR', () => {
  let firefox: FirefoxWithExtension;
  let browser: Browser;
  let stack: SandboxAndProxy;
  let site: PageServer;
  let hostileSite: PageServer;
  let page: Page;
  /** An add-on page kept open to read the add-on's storage from a trusted context. */
  let vaultReader: Page;
  /** What beforeAll started, stopped in reverse order even when it failed half-way. */
  const started: (() => Promise<void>)[] = [];

  function ask(request: unknown, timeoutMs = 10_000): Promise<Outcome> {
    return page.evaluate(
      (r, t) =>
        (window as unknown as { askExtension: (r: unknown, t: number) => Promise<Outcome> }).askExtension(
          r,
          t,
        ),
      request,
      timeoutMs,
    );
  }

  /** The fan clicks the page's button, which asks the extension (a real click: the browser's user activation). */
  async function askWithFanClick(target: Page, request: unknown, timeoutMs = 30_000): Promise<Outcome> {
    await target.evaluate(
      (r, t) => {
        (window as unknown as { askOnClick: (r: unknown, t: number) => void }).askOnClick(r, t);
      },
      request,
      timeoutMs,
    );
    await target.click('#act');
    return target.evaluate(() => (window as unknown as { clicked: Promise<Outcome> }).clicked);
  }

  /** The fan connects the site of `target` from the popup, opened over its tab; the page reloads. */
  async function connectSite(target: Page): Promise<void> {
    const finder = await openExtensionPage('popup.html');
    const tabId = await finder.evaluate(async (origin) => {
      const api = (
        globalThis as unknown as {
          browser: { tabs: { query(q: object): Promise<{ id?: number; url?: string }[]> } };
        }
      ).browser;
      return (await api.tabs.query({})).find((tab) => tab.url?.startsWith(origin))?.id;
    }, new URL(target.url()).origin);
    await finder.close();
    const popup = await openExtensionPage(`popup.html?tab=${tabId}`);
    const reloaded = target.waitForNavigation({ timeout: 15_000 });
    await clickDeep(popup, {
      chain: 'fan-extension-popup >> fan-popup-this-site >> button',
      hasText: 'Connect this site',
    });
    await reloaded;
    await popup.close();
  }

  /**
   * A page of the add-on in a new tab. Puppeteer 24 sees no navigation events for moz-extension documents from
   * Firefox 153, so the tab is sent there and the document itself is awaited.
   */
  async function openExtensionPage(path: string): Promise<Page> {
    const url = `${firefox.extensionOrigin}/${path}`;
    const tab = await browser.newPage();
    await tab.goto(url, { waitUntil: 'networkidle0' });
    await waitUntil(
      () => tab.evaluate((expected) => location.href === expected && document.readyState === 'complete', url),
      `${url} to be loaded`,
      10_000,
    );
    return tab;
  }

  /** The add-on's tab whose document is at `path`, opened by the extension itself (not seen by puppeteer's URL). */
  async function waitForExtensionTab(path: string): Promise<Page> {
    const prefix = `${firefox.extensionOrigin}/${path}`;
    return waitUntil(async () => {
      for (const candidate of await browser.pages()) {
        const href = await candidate.evaluate(() => location.href).catch(() => '');
        if (href.startsWith(prefix)) return candidate;
      }
      return undefined;
    }, `a ${prefix} tab`);
  }

  /** Every storage of the add-on as text, read from its page. */
  async function everyStorage(): Promise<string> {
    return vaultReader.evaluate(dumpExtensionStorage);
  }

  async function storedAccessToken(): Promise<string | undefined> {
    const stored = JSON.parse(await everyStorage()) as { session: { accessGrant?: { accessToken: string } } };
    return stored.session.accessGrant?.accessToken;
  }

  /** The club whose polls the match page shows (the site is connected for it). */
  let club: string;

  /** Open polls of the page's club whose tokens `sam` holds, that sam has not voted in yet. */
  function votablePolls(): Promise<Poll[]> {
    return votablePollsOf(stack, 'sam', club);
  }

  /** Whatever the page received from the extension, as text: never a token. */
  async function everythingThePageSaw(): Promise<string> {
    return page.evaluate(() => JSON.stringify((window as unknown as { seen: unknown[] }).seen));
  }

  beforeAll(async () => {
    if (!firefoxInstalled()) {
      throw new Error(
        `No Firefox at ${firefoxPath()}: install it with \`apt-get install -y firefox-esr\` (.ci/run does), ` +
          'point FIREFOX_PATH at one, or set FAN_POLLS_SKIP_FIREFOX=1 to skip this file.',
      );
    }
    ensureFirefoxBuilt();
    site = await servePage(bridgePage('Riverside match page', `<script>${clubListScript}</script>`));
    started.push(() => site.close());
    hostileSite = await servePage(bridgePage('Hostile page'));
    started.push(() => hostileSite.close());
    firefox = await launchFirefoxWithExtension(firefoxBuild, extensionUuid);
    started.push(() => firefox.close());
    browser = firefox.browser;
    // Only this install's exact origin: a sign-in that works proves Firefox sends `Origin: moz-extension://<uuid>`.
    stack = await startSandboxAndProxy({
      sandbox: { lifetimes: { accessTokenSeconds } },
      proxy: {
        config: {
          allowedOrigins: [site.url],
          extensionOrigins: [firefox.extensionOrigin],
          extensionRedirectUris: [firefoxExtensionRedirectUri],
          acceptAnyFirefoxOrigin: false,
        },
      },
    });
    started.push(() => stack.close());
    // Point the add-on at the stack through its options page, as a fan or partner would.
    const options = await openExtensionPage('options.html');
    const settings = {
      proxyUrl: stack.proxy.url,
      platformApiUrl: stack.sandbox.apiUrl,
      platformAuthUrl: stack.sandbox.authUrl,
    };
    for (const [name, value] of Object.entries(settings)) {
      await fillDeep(options, { chain: `fan-extension-options >> input[name="${name}"]` }, value);
    }
    await clickDeep(options, { chain: 'fan-extension-options >> button[type="submit"]' });
    await waitUntil(
      () =>
        options.evaluate(() =>
          document.querySelector('fan-extension-options')?.shadowRoot?.textContent.includes('Saved.'),
        ),
      'the options to be saved',
      10_000,
    );
    vaultReader = options;
    club = busiestClub(await votablePollsOf(stack, 'sam'));
    page = await browser.newPage();
    await page.goto(`${site.url}/?club=${club}`);
  });

  afterAll(async () => {
    for (const stop of started.reverse()) await stop();
  });

  it('installs as the pinned add-on with its permissions, host permissions and data consent granted', async () => {
    expect(firefox.addonId).toBe(geckoExtensionId);
    const granted = await vaultReader.evaluate(async () => {
      const api = (globalThis as unknown as { browser: BrowserPermissions }).browser;
      return {
        all: await api.permissions.getAll(),
        redirect: api.identity.getRedirectURL(),
      };
    });
    expect(granted.all.permissions).toEqual(
      expect.arrayContaining(['identity', 'storage', 'alarms', 'scripting', 'activeTab']),
    );
    expect(granted.all.origins).toEqual(expect.arrayContaining(['http://127.0.0.1/*', 'http://localhost/*']));
    expect(granted.all.data_collection).toEqual(['authenticationInfo']);
    expect(granted.redirect).toBe(firefoxExtensionRedirectUri);
  });

  it('is not heard on a site until the fan connects it from the popup; then answers, with no token', async () => {
    expect(await ask({ type: 'hello' }, 1500)).toEqual({ timeout: true });
    await connectSite(page);
    expect(await ask({ type: 'hello' })).toEqual({ ok: true, result: { type: 'hello', version: 2 } });
    expect(await ask({ type: 'status' })).toEqual({
      ok: true,
      result: { type: 'status', status: { signedIn: false } },
    });
  });

  it('opens no window for a script, and signs in from the fan’s click through identity.launchWebAuthFlow', async () => {
    expect(await ask({ type: 'sign-in', tracking: {} })).toMatchObject({
      ok: false,
      error: { code: 'user_activation_required' },
    });
    const signingIn = askWithFanClick(page, { type: 'sign-in', tracking: { referrer: 'riverside' } });
    const target = await browser.waitForTarget((each) => each.url().includes('/oauth2/authorize'), {
      timeout: 15_000,
    });
    const authorize = new URL(target.url()).searchParams;
    expect(authorize.get('redirect_uri')).toBe(firefoxExtensionRedirectUri);
    expect(authorize.get('code_challenge_method')).toBe('S256');
    expect(authorize.get('referrer')).toBe('riverside');
    const consent = (await target.page())!;
    await fillDeep(consent, { chain: 'input[name="username"]' }, 'sam');
    await fillDeep(consent, { chain: 'input[name="password"]' }, 'fan-polls');
    await clickDeep(consent, { chain: 'button.allow' });
    expect(await signingIn).toEqual({ ok: true, result: { type: 'sign-in', status: { signedIn: true } } });
    expect(await storedAccessToken()).toMatch(new RegExp(`^${canaryTokenPrefix}`));
  });

  it('casts only the vote the fan confirmed in the extension’s window', async () => {
    const [poll] = await votablePolls();
    expect(poll).toBeDefined();
    const [proposed, confirmed] = poll!.answers;
    // A script's vote: no window, nothing recorded.
    expect(await ask({ type: 'vote', pollId: poll!.id, answerId: proposed!.id })).toMatchObject({
      ok: false,
      error: { code: 'user_activation_required' },
    });
    const voting = askWithFanClick(page, { type: 'vote', pollId: poll!.id, answerId: proposed!.id });
    const confirm = await waitForExtensionTab('confirm.html');
    const inWindow = (selector: string) => ({ chain: `fan-extension-confirm >> ${selector}` });
    await deepElement(confirm, inWindow('[data-testid="question"]'));
    const shown = await confirm.evaluate(() => {
      const root = document.querySelector('fan-extension-confirm')?.shadowRoot;
      return {
        site: root?.querySelector('[data-testid="site"]')?.textContent,
        preselected: root?.querySelector('input:checked')?.parentElement?.textContent.trim(),
      };
    });
    expect(shown).toEqual({ site: site.url, preselected: proposed!.answer });
    // The fan picks another answer in the window, then confirms once Confirm takes input.
    const otherAnswer = await confirm.evaluateHandle((text) => {
      const labels = document
        .querySelector('fan-extension-confirm')
        ?.shadowRoot?.querySelectorAll('label.answer');
      return [...(labels ?? [])].find((label) => label.textContent.trim() === text)?.querySelector('input');
    }, confirmed!.answer);
    await (otherAnswer as ElementHandle<HTMLInputElement>).click();
    // Polled: puppeteer's selector waits do not see attribute changes inside a shadow root.
    await waitUntil(
      () =>
        confirm.evaluate(
          () =>
            document
              .querySelector('fan-extension-confirm')
              ?.shadowRoot?.querySelector('[data-testid="confirm"]')
              ?.getAttribute('aria-disabled') === 'false',
        ),
      'the confirm button to arm',
      10_000,
    );
    await clickDeep(confirm, inWindow('[data-testid="confirm"]')).catch((error: unknown) => {
      if (!confirm.isClosed()) throw error;
    });
    expect(await voting).toEqual({
      ok: true,
      result: { type: 'vote', accepted: true, answerId: confirmed!.id },
    });
    const recorded = await apiRequest(
      stack.sandbox.sandbox,
      `/polls/1.0.8/user/poll/${poll!.id}`,
      fanToken(stack.sandbox.sandbox, 'sam'),
    );
    const data = ((await recorded.json()) as { data: Poll }).data;
    expect(data.userVote).toBe(true);
    expect(data.answers.find((answer) => typeof answer.voteStatus === 'string')?.id).toBe(confirmed!.id);
    expect(
      await askWithFanClick(page, { type: 'vote', pollId: poll!.id, answerId: confirmed!.id }),
    ).toMatchObject({
      ok: false,
      error: { code: 'refused', reason: 'already_voted' },
    });
  });

  it('stays signed in over access-token expiries (refresh through the proxy, under navigator.locks)', async () => {
    const [poll] = await votablePolls();
    const first = await storedAccessToken();
    const failures: Outcome[] = [];
    const seen = new Set<string>(first ? [first] : []);
    // The fan's page asks on, twice a second, until the vault has held three access tokens (two expiries).
    await waitUntil(
      async () => {
        const outcome = await ask({ type: 'poll-view', pollId: poll!.id });
        if (!outcome.ok) failures.push(outcome);
        const token = await storedAccessToken();
        if (token) seen.add(token);
        return seen.size >= 3;
      },
      'three access tokens',
      accessTokenSeconds * 8 * 1000,
      500,
    );
    expect(failures).toEqual([]);
    expect(seen.size).toBeGreaterThanOrEqual(3);
  });

  it('refreshes the access token on its alarm while no page asks for anything', async () => {
    const before = await storedAccessToken();
    expect(before).toMatch(new RegExp(`^${canaryTokenPrefix}`));
    await expect
      .poll(storedAccessToken, { timeout: accessTokenSeconds * 5 * 1000, interval: 500 })
      .not.toBe(before);
    expect(await storedAccessToken()).toMatch(new RegExp(`^${canaryTokenPrefix}`));
  });

  describe('a hostile page on another site (not connected), while the fan is signed in', () => {
    let hostile: Page;
    let votedBefore: number;

    /** Posts a raw message as the hostile page; its answer for `requestId`, or a timeout. */
    function postRaw(message: unknown, requestId = 'attack', timeoutMs = 1500) {
      return hostile.evaluate(postInPage, [message, requestId, timeoutMs] as const);
    }

    const votedCount = async (): Promise<number> =>
      (await pollsOfFan(stack, 'sam')).filter((poll) => poll.userVote === true).length;

    beforeAll(async () => {
      votedBefore = await votedCount();
      hostile = await browser.newPage();
      await hostile.goto(hostileSite.url);
    });

    afterAll(async () => {
      await hostile.close();
    });

    it('gets no answer to forged, malformed or out-of-list messages', async () => {
      const [poll] = await votablePolls();
      const ignored = ignoredMessages(poll!, stack.sandbox.apiUrl);
      const extensionMessages = () => hostile.evaluate(extensionMessagesInPage);
      const before = await extensionMessages();
      // All posted at once, each waited on for the same time: an answer to any of them fails the test.
      const outcomes = await Promise.all([
        ...ignored.map(({ message, requestId }) => postRaw(message, requestId)),
        // A forged answer: the extension neither acts nor answers.
        postRaw(forgedAnswer, 'none'),
      ]);
      expect(outcomes.every((outcome) => 'timeout' in outcome)).toBe(true);
      // The page hears only its own messages that pose as the extension's: the forged answer and one forged request.
      const posing = [...ignored.map(({ message }) => message), forgedAnswer].filter(
        (message) => (message as { source?: string }).source === 'fan-polls-extension',
      );
      expect(posing).toHaveLength(2);
      expect(await extensionMessages()).toBe(before + posing.length);
    });

    it('is not heard at all: no answer, no window, even with the fan’s click', async () => {
      const [poll] = await votablePolls();
      // Each request waited on at once for the same time: an answer to any of them fails the test.
      const outcomes = await Promise.all([
        ...[
          { type: 'hello' },
          { type: 'status' },
          { type: 'poll-view', pollId: poll!.id },
          { type: 'vote', pollId: poll!.id, answerId: poll!.answers[0]!.id },
        ].map((request) => postRaw(envelope(request))),
        askWithFanClick(hostile, { type: 'sign-in', tracking: { campaign: 'phish' } }, 1500),
      ]);
      expect(outcomes).toEqual(Array.from({ length: 5 }, () => ({ timeout: true })));
      const hrefs = await Promise.all(
        (await browser.pages()).map((each) => each.evaluate(() => location.href).catch(() => '')),
      );
      expect(
        hrefs.filter((href) => href.includes('confirm.html') || href.includes('/oauth2/authorize')),
      ).toEqual([]);
    });

    it('gets at most the tab’s budget of platform calls on the connected site, however it floods', async () => {
      const [poll] = await votablePolls();
      const outcomes = await page.evaluate(floodInPage, {
        request: { type: 'poll-view', pollId: poll!.id },
        count: 200,
        answeredAtLeast: bridgeCapacity,
        quietMs: 2000,
        timeoutMs: 10_000,
      });
      expect(outcomes.filter((outcome) => outcome.ok).length).toBeLessThanOrEqual(60);
      expect(outcomes.some((outcome) => outcome.error?.code === 'rate_limited')).toBe(true);
    });

    it('finds no extension file and no token anywhere it can look, and no vote was cast', async () => {
      const found = await hostile.evaluate(async (origin) => {
        const report: Record<string, unknown> = {};
        for (const path of ['popup.html', 'manifest.json', 'confirm.html', 'content/page-bridge.iife.js']) {
          report[path] = await fetch(`${origin}/${path}`).then(
            () => 'readable',
            () => 'blocked',
          );
        }
        report['storage'] =
          JSON.stringify(Object.entries(localStorage)) +
          JSON.stringify(Object.entries(sessionStorage)) +
          document.cookie;
        report['globals'] = Object.keys(window).filter((key) => /fan|token|vault/i.test(key));
        report['dom'] = document.documentElement.outerHTML;
        report['seen'] = JSON.stringify((window as unknown as { seen: unknown[] }).seen);
        return report;
      }, firefox.extensionOrigin);
      for (const path of ['popup.html', 'manifest.json', 'confirm.html', 'content/page-bridge.iife.js']) {
        expect(found[path]).toBe('blocked');
      }
      expect(found['globals']).toEqual([]);
      expect(JSON.stringify(found)).not.toContain(canaryTokenPrefix);
      expect(await votedCount()).toBe(votedBefore);
    });
  });

  it('signs out from the popup: no token left in any storage, none ever sent to the page', async () => {
    const popup = await openExtensionPage('popup.html');
    await clickDeep(popup, { chain: 'fan-extension-popup >> button', hasText: 'Sign out' });
    await waitUntil(
      () =>
        popup.evaluate(() =>
          document
            .querySelector('fan-extension-popup')
            ?.shadowRoot?.querySelector('[data-testid="session"]')
            ?.textContent.includes('Not signed in'),
        ),
      'the popup to say Not signed in',
      10_000,
    );
    await popup.close();
    expect(await everyStorage()).not.toContain(canaryTokenPrefix);
    const seen = await everythingThePageSaw();
    expect(seen).toContain('fan-polls-extension');
    expect(seen).not.toContain(canaryTokenPrefix);
    // The site belonged to the fan who connected it: after sign-out it is not heard.
    await page.reload();
    expect(await ask({ type: 'hello' }, 1500)).toEqual({ timeout: true });
  });
});

interface BrowserPermissions {
  permissions: {
    getAll(): Promise<{ permissions: string[]; origins: string[]; data_collection: string[] }>;
  };
  identity: { getRedirectURL(): string };
}
