// The Firefox build in Mozilla's own tools: addons-linter (through web-ext) on dist/extension/firefox, then the
// add-on installed into Debian's Firefox ESR as a temporary add-on and driven over WebDriver BiDi: the background
// starts, the page bridge answers, the fan signs in through identity.launchWebAuthFlow on the sandbox's consent page,
// approves a site in the extension's window, votes from the page, stays signed in over token refreshes (on demand and
// on the background's alarm), keeps a hostile page out (no answer to forged messages, no poll view or vote
// unapproved, rate limits, no token anywhere it can look), and signs out leaving no token anywhere.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firefoxExtensionRedirectUri, geckoExtensionId } from '../../src/local-defaults.ts';
import type { Poll } from '../../src/platform/types.ts';
import { findFanByUsername } from '../../src/sandbox/data/fans.ts';
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
import { bridgePage, pollsOfFan } from './extension-harness.ts';
import {
  envelope,
  extensionMessagesInPage,
  forgedAnswer,
  ignoredMessages,
  postInPage,
} from './hostile-messages.ts';
import { dumpExtensionStorage } from '../support/extension-storage.ts';

const firefoxBuild = resolve(import.meta.dirname, '../../dist/extension/firefox');

/** `npm test` builds first; a lone run of this file builds the Firefox extension when it is missing. */
function ensureFirefoxBuilt(): void {
  if (!existsSync(join(firefoxBuild, 'manifest.json'))) viteBuild('extension-firefox');
}

interface LintMessage {
  readonly code: string;
  readonly message: string;
  readonly file?: string;
}
interface LintReport {
  readonly errors: LintMessage[];
  readonly warnings: LintMessage[];
  readonly notices: LintMessage[];
}
interface WebExt {
  readonly cmd: {
    lint(
      params: { sourceDir: string; output: 'none'; selfHosted: boolean },
      options: { shouldExitProgram: false },
    ): Promise<LintReport>;
  };
}

/**
 * Warnings accepted, each for a reason: Lit builds its templates with `innerHTML` from the template's static strings
 * (values are bound later as text), and `data_collection_permissions` needs Firefox for Android 142 while the
 * extension does not run on Android at all (Firefox for Android has no `identity.launchWebAuthFlow`).
 */
function isAcceptedWarning(warning: LintMessage): boolean {
  if (warning.code === 'UNSAFE_VAR_ASSIGNMENT') return /^assets\/lit-[\w-]+\.js$/.test(warning.file ?? '');
  return warning.code === 'KEY_FIREFOX_ANDROID_UNSUPPORTED_BY_MIN_VERSION';
}

describe('the Firefox build in Mozilla’s addons-linter', () => {
  it('has no errors and no warnings but the accepted ones', async () => {
    ensureFirefoxBuilt();
    // web-ext ships no types; a specifier typed as a plain string keeps TypeScript from looking for them.
    const webExtModule: string = 'web-ext';
    const { cmd } = (await import(webExtModule)) as WebExt;
    // In-process (not the CLI, which checks npm for updates); the linter's schemas are bundled: no network.
    const report = await cmd.lint(
      { sourceDir: firefoxBuild, output: 'none', selfHosted: false },
      { shouldExitProgram: false },
    );
    expect(report.errors).toEqual([]);
    expect(report.warnings.filter((warning) => !isAcceptedWarning(warning))).toEqual([]);
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

  /**
   * A page of the add-on in a new tab. Puppeteer 24 sees no navigation events for moz-extension documents from
   * Firefox 153, so the tab is sent there and the document itself is awaited.
   */
  async function openExtensionPage(path: string): Promise<Page> {
    const url = `${firefox.extensionOrigin}/${path}`;
    const tab = await browser.newPage();
    await tab.goto(url, { waitUntil: 'networkidle0' });
    await tab.waitForFunction(
      (expected) => location.href === expected && document.readyState === 'complete',
      { timeout: 10_000 },
      url,
    );
    return tab;
  }

  /** The add-on's tab whose document is at `path`, opened by the extension itself (not seen by puppeteer's URL). */
  async function waitForExtensionTab(path: string): Promise<Page> {
    const prefix = `${firefox.extensionOrigin}/${path}`;
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline) {
      for (const candidate of await browser.pages()) {
        const href = await candidate.evaluate(() => location.href).catch(() => '');
        if (href.startsWith(prefix)) return candidate;
      }
      await new Promise((done) => setTimeout(done, 100));
    }
    throw new Error(`No ${prefix} tab opened.`);
  }

  /** Every storage of the add-on as text, read from its page. */
  async function everyStorage(): Promise<string> {
    return vaultReader.evaluate(dumpExtensionStorage);
  }

  async function storedAccessToken(): Promise<string | undefined> {
    const stored = JSON.parse(await everyStorage()) as { session: { accessGrant?: { accessToken: string } } };
    return stored.session.accessGrant?.accessToken;
  }

  /** Open polls of clubs whose tokens `sam` holds, that sam has not voted in yet. */
  async function votablePolls(): Promise<Poll[]> {
    const holdings = findFanByUsername('sam')?.holdings ?? {};
    const now = Date.now();
    return (await pollsOfFan(stack, 'sam')).filter(
      (poll) =>
        (holdings[poll.partnerId] ?? 0) > 0 &&
        poll.userVote !== true &&
        poll.status !== 'cancelled' &&
        (poll.openAt === undefined || Date.parse(poll.openAt) <= now) &&
        (poll.closeAt === undefined || Date.parse(poll.closeAt) > now + 60_000),
    );
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
    site = await servePage(bridgePage('Riverside match page'));
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
      await options.locator(`fan-extension-options >>> input[name="${name}"]`).fill(value);
    }
    await options.locator('fan-extension-options >>> button[type="submit"]').click();
    await options.waitForFunction(
      () => document.querySelector('fan-extension-options')?.shadowRoot?.textContent.includes('Saved.'),
      { timeout: 10_000 },
    );
    vaultReader = options;
    page = await browser.newPage();
    await page.goto(site.url);
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
    expect(granted.all.permissions).toEqual(expect.arrayContaining(['identity', 'storage', 'alarms']));
    expect(granted.all.origins).toEqual(expect.arrayContaining(['http://127.0.0.1/*', 'http://localhost/*']));
    expect(granted.all.data_collection).toEqual(['authenticationInfo']);
    expect(granted.redirect).toBe(firefoxExtensionRedirectUri);
  });

  it('answers a page’s hello from the content script and its status from the background, with no token', async () => {
    expect(await ask({ type: 'hello' })).toEqual({ ok: true, result: { type: 'hello', version: 1 } });
    expect(await ask({ type: 'status' })).toEqual({
      ok: true,
      result: { type: 'status', status: { signedIn: false, siteApproved: false } },
    });
  });

  it('signs in through identity.launchWebAuthFlow on the sandbox consent page', async () => {
    const signingIn = ask({ type: 'sign-in', tracking: { referrer: 'riverside' } }, 30_000);
    const target = await browser.waitForTarget((each) => each.url().includes('/oauth2/authorize'), {
      timeout: 15_000,
    });
    const authorize = new URL(target.url()).searchParams;
    expect(authorize.get('redirect_uri')).toBe(firefoxExtensionRedirectUri);
    expect(authorize.get('code_challenge_method')).toBe('S256');
    expect(authorize.get('referrer')).toBe('riverside');
    const consent = (await target.page())!;
    await consent.locator('input[name="username"]').fill('sam');
    await consent.locator('input[name="password"]').fill('fan-polls');
    await consent.locator('button.allow').click();
    expect(await signingIn).toEqual({
      ok: true,
      result: { type: 'sign-in', status: { signedIn: true, siteApproved: false } },
    });
    expect(await storedAccessToken()).toMatch(new RegExp(`^${canaryTokenPrefix}`));
  });

  it('approves the site in the extension’s window, then votes from the page', async () => {
    const [poll] = await votablePolls();
    expect(poll).toBeDefined();
    expect(await ask({ type: 'vote', pollId: poll!.id, answerId: poll!.answers[0]!.id })).toMatchObject({
      ok: false,
      error: { code: 'site_not_approved' },
    });
    const connecting = ask({ type: 'connect' }, 30_000);
    const approval = await waitForExtensionTab('approve.html');
    const allow = approval.locator('fan-extension-approve >>> button::-p-text(Allow)');
    await approval.waitForFunction(
      () => document.querySelector('fan-extension-approve')?.shadowRoot?.querySelector('.origin') !== null,
      { timeout: 10_000 },
    );
    const shownOrigin = await approval.evaluate(
      () =>
        document.querySelector('fan-extension-approve')?.shadowRoot?.querySelector('.origin')?.textContent,
    );
    expect(shownOrigin).toBe(site.url);
    // The window closes itself on the answer, sometimes before the click returns: that race is not a failure.
    await allow.click().catch((error: unknown) => {
      if (!approval.isClosed()) throw error;
    });
    expect(await connecting).toEqual({
      ok: true,
      result: { type: 'connect', status: { signedIn: true, siteApproved: true } },
    });
    const answerId = poll!.answers[0]!.id;
    expect(await ask({ type: 'vote', pollId: poll!.id, answerId })).toEqual({
      ok: true,
      result: { type: 'vote', accepted: true },
    });
    const recorded = await apiRequest(
      stack.sandbox.sandbox,
      `/polls/1.0.8/user/poll/${poll!.id}`,
      fanToken(stack.sandbox.sandbox, 'sam'),
    );
    expect(((await recorded.json()) as { data: Poll }).data.userVote).toBe(true);
    expect(await ask({ type: 'vote', pollId: poll!.id, answerId })).toMatchObject({
      ok: false,
      error: { code: 'refused', reason: 'already_voted' },
    });
  });

  it('stays signed in over access-token expiries (refresh through the proxy, under navigator.locks)', async () => {
    const [poll] = await votablePolls();
    const first = await storedAccessToken();
    const failures: Outcome[] = [];
    const seen = new Set<string>(first ? [first] : []);
    const until = Date.now() + accessTokenSeconds * 2_000;
    while (Date.now() < until || seen.size < 3) {
      const outcome = await ask({ type: 'poll-view', pollId: poll!.id });
      if (!outcome.ok) failures.push(outcome);
      const token = await storedAccessToken();
      if (token) seen.add(token);
      await new Promise((done) => setTimeout(done, 500));
    }
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

  describe('a hostile page on another site, while the fan is signed in', () => {
    let hostile: Page;
    let votedBefore: number;

    /** Posts a raw message as the hostile page; its answer for `requestId`, or a timeout. */
    function postRaw(message: unknown, requestId = 'attack', timeoutMs = 700) {
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
      for (const { message, requestId } of ignoredMessages(poll!, stack.sandbox.apiUrl)) {
        expect(await postRaw(message, requestId)).toEqual({ timeout: true });
      }
      // A forged answer: the page hears only its own message; the extension neither acts nor answers.
      const extensionMessages = () => hostile.evaluate(extensionMessagesInPage);
      const before = await extensionMessages();
      await postRaw(forgedAnswer, 'none');
      expect(await extensionMessages()).toBe(before + 1);
    });

    it('reads no poll view and casts no vote unapproved, and stays unapproved when the fan denies it', async () => {
      const [poll] = await votablePolls();
      const refused = { ok: false, error: { code: 'site_not_approved' } };
      expect(await postRaw(envelope({ type: 'poll-view', pollId: poll!.id }))).toMatchObject(refused);
      expect(
        await postRaw(envelope({ type: 'vote', pollId: poll!.id, answerId: poll!.answers[0]!.id })),
      ).toMatchObject(refused);
      const connecting = postRaw(envelope({ type: 'connect' }), 'attack', 15_000);
      const approval = await waitForExtensionTab('approve.html');
      await approval.waitForFunction(
        () => document.querySelector('fan-extension-approve')?.shadowRoot?.querySelector('.origin') !== null,
        { timeout: 10_000 },
      );
      expect(
        await approval.evaluate(
          () =>
            document.querySelector('fan-extension-approve')?.shadowRoot?.querySelector('.origin')
              ?.textContent,
        ),
      ).toBe(hostileSite.url);
      await approval
        .locator('fan-extension-approve >>> button::-p-text(Deny)')
        .click()
        .catch((error: unknown) => {
          if (!approval.isClosed()) throw error;
        });
      expect(await connecting).toEqual({
        ok: true,
        result: { type: 'connect', status: { signedIn: true, siteApproved: false } },
      });
    });

    it('is rate-limited when it floods the bridge', async () => {
      const outcomes = await hostile.evaluate(async () => {
        const ask = (window as unknown as { askExtension: (r: unknown, t: number) => Promise<Outcome> })
          .askExtension;
        return Promise.all(Array.from({ length: 200 }, () => ask({ type: 'status' }, 5000)));
      });
      expect(outcomes.some((outcome) => outcome.error?.code === 'rate_limited')).toBe(true);
    });

    it('finds no extension file and no token anywhere it can look, and no vote was cast', async () => {
      const found = await hostile.evaluate(async (origin) => {
        const report: Record<string, unknown> = {};
        for (const path of ['popup.html', 'manifest.json', 'approve.html']) {
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
      for (const path of ['popup.html', 'manifest.json', 'approve.html']) expect(found[path]).toBe('blocked');
      expect(found['globals']).toEqual([]);
      expect(found['seen']).toContain('fan-polls-extension');
      expect(JSON.stringify(found)).not.toContain(canaryTokenPrefix);
      expect(await votedCount()).toBe(votedBefore);
    });
  });

  it('signs out from the popup: no token left in any storage, none ever sent to the page', async () => {
    const popup = await openExtensionPage('popup.html');
    await popup.locator('fan-extension-popup >>> button::-p-text(Sign out)').click();
    await popup.waitForFunction(
      () =>
        document
          .querySelector('fan-extension-popup')
          ?.shadowRoot?.querySelector('[data-testid="session"]')
          ?.textContent.includes('Not signed in'),
      { timeout: 10_000 },
    );
    await popup.close();
    expect(await everyStorage()).not.toContain(canaryTokenPrefix);
    expect(await ask({ type: 'status' })).toMatchObject({ result: { status: { signedIn: false } } });
    const seen = await everythingThePageSaw();
    expect(seen).toContain('fan-polls-extension');
    expect(seen).not.toContain(canaryTokenPrefix);
  });
});

interface BrowserPermissions {
  permissions: {
    getAll(): Promise<{ permissions: string[]; origins: string[]; data_collection: string[] }>;
  };
  identity: { getRedirectURL(): string };
}
