// Shared set-up of the extension's browser tests: the built extension in a fresh Chromium profile, the sandbox and
// the proxy on random ports, and small pages on loopback that talk the page-bridge protocol.
import { existsSync, mkdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { BrowserContext, Frame, Page, Worker } from 'playwright-core';
import { extensionId, extensionRedirectUri } from '../../src/local-defaults.ts';
import type { Poll } from '../../src/platform/types.ts';
import { findFanByUsername } from '../../src/sandbox/data/fans.ts';
import type { ServeSandboxOptions } from '../../src/sandbox/serve.ts';
import { apiRequest, fanToken } from '../../src/sandbox/test-kit.ts';
import { launchWithExtension } from '../support/chromium.ts';
import { startSandboxAndProxy, type SandboxAndProxy } from '../support/stack.ts';
import { viteBuild } from '../support/vite-build.ts';

export const extensionDir = resolve(import.meta.dirname, '../../dist/extension/chrome');

/** `npm test` builds first; a lone run of these tests builds the Chromium extension when it is missing. */
export function ensureExtensionBuilt(): void {
  if (existsSync(join(extensionDir, 'manifest.json'))) return;
  viteBuild('extension-chrome');
}

export interface LoadedExtension {
  readonly context: BrowserContext;
  readonly id: string;
  worker(): Promise<Worker>;
  close(): Promise<void>;
}

/**
 * The built extension (or the unpacked one at `dir`, a partner's build) in a fresh profile. With no `key` in its
 * manifest, Chromium derives the id from the folder: `id` is read from the running service worker.
 */
export async function launchExtension(dir = extensionDir): Promise<LoadedExtension> {
  if (dir === extensionDir) ensureExtensionBuilt();
  const profile = await mkdtemp(join(tmpdir(), 'fan-polls-extension-'));
  const context = await launchWithExtension(profile, dir);
  const worker = async (): Promise<Worker> =>
    context.serviceWorkers().find((candidate) => candidate.url().startsWith('chrome-extension://')) ??
    context.waitForEvent('serviceworker', { timeout: 15_000 });
  const first = await worker();
  const id = new URL(first.url()).host;
  return {
    context,
    id,
    worker,
    close: async () => {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/**
 * Chromium's own install-prompt warnings for `manifest` (as its Web Store shows them), from the extension's worker:
 * `management.getPermissionWarningsByManifest`.
 */
export async function installWarnings(
  extension: LoadedExtension,
  manifest: Record<string, unknown>,
): Promise<string[]> {
  const worker = await extension.worker();
  return worker.evaluate(
    (text) =>
      (
        globalThis as unknown as {
          chrome: { management: { getPermissionWarningsByManifest(m: string): Promise<string[]> } };
        }
      ).chrome.management.getPermissionWarningsByManifest(text),
    JSON.stringify(manifest),
  );
}

/** The sandbox and the proxy on random ports, pages of `allowedOrigins` and the extension allowed. */
export function startStack(
  allowedOrigins: readonly string[],
  sandboxOptions: ServeSandboxOptions = {},
): Promise<SandboxAndProxy> {
  return startSandboxAndProxy({
    sandbox: sandboxOptions,
    proxy: {
      config: {
        allowedOrigins,
        extensionOrigins: [`chrome-extension://${extensionId}`],
        extensionRedirectUris: [extensionRedirectUri],
      },
    },
  });
}

/**
 * Points the extension at the stack through its options page, as a fan or partner would; `platformApiUrl` may name
 * a counting forwarder in front of the sandbox's API.
 */
export async function configureExtension(
  extension: LoadedExtension,
  stack: SandboxAndProxy,
  platformApiUrl = stack.sandbox.apiUrl,
): Promise<void> {
  const settings = {
    proxyUrl: stack.proxy.url,
    platformApiUrl,
    platformAuthUrl: stack.sandbox.authUrl,
  };
  const page = await extension.context.newPage();
  await page.goto(`chrome-extension://${extension.id}/options.html`);
  for (const [name, value] of Object.entries(settings)) {
    await page.locator(`input[name="${name}"]`).fill(value);
  }
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByTestId('options-message').filter({ hasText: 'Saved.' }).waitFor();
  await page.close();
}

/** A seeded fan's polls (up to 100) as the platform lists them to the fan, read from the sandbox in-process. */
export async function pollsOfFan(stack: SandboxAndProxy, username: string): Promise<Poll[]> {
  const { sandbox } = stack.sandbox;
  const response = await apiRequest(
    sandbox,
    '/polls/1.0.8/user/polls?limit=100',
    fanToken(sandbox, username),
  );
  return ((await response.json()) as { data: Poll[] }).data;
}

/** Open polls `username` holds tokens for and has not voted in, closing in more than a minute; of `club` if given. */
export async function votablePollsOf(
  stack: SandboxAndProxy,
  username: string,
  club?: string,
): Promise<Poll[]> {
  const holdings = findFanByUsername(username)?.holdings ?? {};
  const now = Date.now();
  return (await pollsOfFan(stack, username)).filter(
    (poll) =>
      (club === undefined || poll.partnerId === club) &&
      (holdings[poll.partnerId] ?? 0) > 0 &&
      poll.userVote !== true &&
      poll.status !== 'cancelled' &&
      poll.answers.length >= 2 &&
      (poll.openAt === undefined || Date.parse(poll.openAt) <= now) &&
      (poll.closeAt === undefined || Date.parse(poll.closeAt) > now + 60_000),
  );
}

/** The club with the most of these polls: the one a partner page shows. */
export function busiestClub(polls: readonly Poll[]): string {
  const count = (id: string) => polls.filter((poll) => poll.partnerId === id).length;
  const club = [...new Set(polls.map((poll) => poll.partnerId))].sort((a, b) => count(b) - count(a))[0];
  if (club === undefined) throw new Error('No poll to pick a club from.');
  return club;
}

/**
 * A partner page's script: `?club=<partner id>` shows that club's list of polls (`<fan-poll-list partner-ids>`), what
 * the extension records when the fan connects the site.
 */
export const clubListScript = `
  const shownClub = new URLSearchParams(location.search).get('club');
  if (shownClub) {
    const list = document.createElement('fan-poll-list'); list.setAttribute('partner-ids', shownClub);
    document.body.append(list);
  }
`;

/**
 * A page script that speaks the bridge protocol exactly as the widget's extension channel does:
 * `window.askExtension(request, timeoutMs)` resolves with the outcome (never throws), `window.seen` keeps every
 * message the page received. `window.askOnClick(request, timeoutMs)` arms the page's `#act` button: the next click on
 * it asks, and `window.clicked` resolves with the outcome (a fan's real click gives the browser's user activation; a
 * script's `click()` does not).
 */
export const bridgePageScript = `
  window.seen = [];
  window.addEventListener('message', (event) => { window.seen.push(event.data); });
  window.askExtension = (request, timeoutMs = 5000) => new Promise((resolve) => {
    const requestId = crypto.randomUUID();
    const timer = setTimeout(() => { window.removeEventListener('message', onMessage); resolve({ timeout: true }); }, timeoutMs);
    function onMessage(event) {
      const data = event.data;
      if (event.source !== window || !data || data.source !== 'fan-polls-extension' || data.requestId !== requestId) return;
      clearTimeout(timer);
      window.removeEventListener('message', onMessage);
      resolve(data.outcome);
    }
    window.addEventListener('message', onMessage);
    window.postMessage({ source: 'fan-polls-page', version: 2, requestId, request }, location.origin);
  });
  window.askOnClick = (request, timeoutMs = 30000) => {
    window.clicked = new Promise((resolve) => {
      document.querySelector('#act').onclick = () => { window.askExtension(request, timeoutMs).then(resolve); };
    });
  };
`;

export function bridgePage(title: string, body = ''): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head>
<body><h1>${title}</h1><button id="act" type="button">Act</button>${body}<script>${bridgePageScript}</script></body></html>`;
}

export type BridgeOutcomeInPage = {
  ok?: boolean;
  timeout?: true;
  result?: unknown;
  error?: { code: string; message?: string; reason?: string };
};

/** Asks over the bridge from a script, with no action by the fan. */
export function askFromScript(
  page: Page | Frame,
  request: unknown,
  timeoutMs = 5000,
): Promise<BridgeOutcomeInPage> {
  return page.evaluate(
    ([r, t]) =>
      (
        window as unknown as { askExtension: (r: unknown, t: number) => Promise<BridgeOutcomeInPage> }
      ).askExtension(r, t),
    [request, timeoutMs] as const,
  );
}

/** Arms `#act` with `request`; the caller clicks it (a real click) or not, then reads `clickedOutcome`. */
export async function armClick(page: Page | Frame, request: unknown, timeoutMs = 30_000): Promise<void> {
  await page.evaluate(
    ([r, t]) => {
      (window as unknown as { askOnClick: (r: unknown, t: number) => void }).askOnClick(r, t);
    },
    [request, timeoutMs] as const,
  );
}

/**
 * The answer to the armed click, or `{ error: { code: 'not_clicked' } }` when the click never reached the button
 * within `waitMs` (so a test fails with a reason instead of hanging).
 */
export function clickedOutcome(page: Page | Frame, waitMs = 45_000): Promise<BridgeOutcomeInPage> {
  return page.evaluate(
    (wait) =>
      Promise.race([
        (window as unknown as { clicked: Promise<BridgeOutcomeInPage> }).clicked,
        new Promise<BridgeOutcomeInPage>((resolve) => {
          setTimeout(() => {
            resolve({ error: { code: 'not_clicked' } });
          }, wait);
        }),
      ]),
    waitMs,
  );
}

/**
 * Resolves once the frame and its page both painted twice: a frame of another site runs in its own process, and a
 * click sent before the browser can hit-test it lands on the page below instead.
 */
export async function afterFramePainted(frame: Frame): Promise<void> {
  const twoFrames = () =>
    new Promise<void>((resolve) => {
      requestAnimationFrame(() => {
        requestAnimationFrame(() => {
          resolve();
        });
      });
    });
  await frame.evaluate(twoFrames);
  await frame.page().evaluate(twoFrames);
}

/** The fan clicks the page's button, which asks the extension; resolves with the answer. */
export async function askWithFanClick(
  page: Page,
  request: unknown,
  timeoutMs = 30_000,
): Promise<BridgeOutcomeInPage> {
  await armClick(page, request, timeoutMs);
  await page.click('#act');
  return clickedOutcome(page);
}

/** The browser's id of the tab showing `page`, read by the extension's worker. */
export async function tabIdOf(extension: LoadedExtension, page: Page): Promise<number> {
  const worker = await extension.worker();
  const url = page.url();
  const id = await worker.evaluate(async (wanted) => {
    const tabs = (await (globalThis as unknown as { chrome: ChromeTabs }).chrome.tabs.query({})) as {
      id?: number;
      url?: string;
    }[];
    return tabs.find((tab) => tab.url === wanted)?.id;
  }, url);
  if (id === undefined) throw new Error(`No tab shows ${url}`);
  return id;
}

interface ChromeTabs {
  tabs: { query(query: object): Promise<unknown[]> };
}

/** The toolbar popup as opened over `page`'s tab (`popup.html?tab=<id>`). */
export async function openPopupFor(extension: LoadedExtension, page?: Page): Promise<Page> {
  const query = page ? `?tab=${await tabIdOf(extension, page)}` : '';
  const popup = await extension.context.newPage();
  await popup.setViewportSize({ width: 400, height: 640 });
  await popup.goto(`chrome-extension://${extension.id}/popup.html${query}`);
  return popup;
}

/** The fan connects `page`'s site from the popup; the extension reloads the page so its bridge starts. */
export async function connectSite(
  extension: LoadedExtension,
  page: Page,
  screenshot?: string,
): Promise<void> {
  const popup = await openPopupFor(extension, page);
  await popup.getByRole('button', { name: 'Connect this site' }).waitFor();
  if (screenshot) await popup.screenshot({ path: screenshotPath(screenshot) });
  const reloaded = page.waitForEvent('load', { timeout: 15_000 });
  await popup.getByRole('button', { name: 'Connect this site' }).click();
  await popup.getByTestId('this-site').filter({ hasText: 'is connected' }).waitFor();
  await reloaded;
  await popup.close();
}

export const screenshotFolder = resolve(import.meta.dirname, '../../test-results/screenshots');

export function screenshotPath(name: string): string {
  mkdirSync(screenshotFolder, { recursive: true });
  return join(screenshotFolder, `${name}.png`);
}

export interface ShownProposal {
  readonly site: string;
  readonly club: string;
  readonly question: string;
  readonly preselected: string;
  readonly binding: string;
  readonly weight: string;
}

/**
 * Waits for the extension's confirmation window: the first page opened from now on whose URL becomes its
 * `confirm.html`. Each new page is watched until its URL says what it is, since a loaded machine can announce a window
 * before it has navigated (a predicate on the URL at the event would miss it, and the proposal it shows stays open).
 */
export function confirmationWindow(context: BrowserContext, timeout = 15_000): Promise<Page> {
  return windowAt(context, /\/confirm\.html/, 'confirmation window', timeout);
}

/**
 * The next window of `context` that comes to an address matching `address` within `timeout`: each new window is
 * watched until it gets there, as a window may open on `about:blank` and navigate after the `page` event. With
 * `alreadyOpen`, the windows open now are watched too (for a window the caller's click may have opened already).
 */
function windowAt(
  context: BrowserContext,
  address: RegExp,
  what: string,
  timeout: number,
  alreadyOpen = false,
): Promise<Page> {
  const deadline = Date.now() + timeout;
  return new Promise((resolve, reject) => {
    const stop = () => {
      clearTimeout(timer);
      context.off('page', watch);
    };
    const watch = (page: Page) => {
      page.waitForURL(address, { timeout: Math.max(1, deadline - Date.now()) }).then(
        () => {
          stop();
          resolve(page);
        },
        () => undefined,
      );
    };
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`No ${what} opened within ${String(timeout)} ms.`));
    }, timeout);
    context.on('page', watch);
    if (alreadyOpen) for (const page of context.pages()) watch(page);
  });
}

/** What the confirmation window shows, read as the fan reads it. */
export async function readProposal(window: Page): Promise<ShownProposal> {
  await window.getByTestId('question').waitFor();
  const text = async (testId: string) => ((await window.getByTestId(testId).textContent()) ?? '').trim();
  const checked = window.locator('input[type="radio"]:checked').locator('xpath=..');
  return {
    site: await text('site'),
    club: await text('club'),
    question: await text('question'),
    preselected: ((await checked.textContent()) ?? '').trim(),
    binding: await text('binding'),
    weight: await text('weight'),
  };
}

/**
 * The fan answers the confirmation window: `pick` another answer first (its text), then confirm once Confirm takes
 * input, or cancel. Returns what the window showed.
 */
export async function answerConfirmation(
  context: BrowserContext,
  decision: 'confirm' | 'cancel',
  options: { pick?: string; screenshot?: string } = {},
): Promise<ShownProposal> {
  const window = await confirmationWindow(context);
  const shown = await readProposal(window);
  if (options.pick) await window.getByRole('radio', { name: options.pick }).check();
  const closed = window.waitForEvent('close', { timeout: 15_000 });
  if (decision === 'confirm') {
    await window.locator('[data-testid="confirm"][aria-disabled="false"]').waitFor();
    if (options.screenshot) {
      // The size the extension opens the window at.
      await window.setViewportSize({ width: 440, height: 620 });
      await window.screenshot({ path: screenshotPath(options.screenshot) });
    }
    await window.getByTestId('confirm').click().catch(ignoreIfClosed(window));
  } else {
    await window.getByRole('button', { name: 'Cancel' }).click().catch(ignoreIfClosed(window));
  }
  await closed;
  return shown;
}

/** The window closes itself on the answer, sometimes before the click action finishes: that race is not a failure. */
function ignoreIfClosed(window: Page) {
  return (error: unknown) => {
    if (!window.isClosed()) throw error;
  };
}
/** Answers the sandbox's consent page opened by `launchWebAuthFlow` (a page of the context); returns its URL. */
export async function completeConsent(
  context: BrowserContext,
  decision: 'allow' | 'deny',
  username = 'sam',
): Promise<string> {
  // The click that opens it may resolve after it opened. A consent window closes once answered: the one open is this one.
  const consent = await windowAt(context, /\/oauth2\/authorize/, 'consent window', 15_000, true);
  await consent.waitForLoadState('domcontentloaded');
  const authorizeUrl = consent.url();
  if (decision === 'allow') {
    await consent.locator('input[name="username"]').fill(username);
    await consent.locator('input[name="password"]').fill('fan-polls');
    await consent.locator('button.allow').click();
  } else {
    await consent.locator('button.deny').click();
  }
  return authorizeUrl;
}
