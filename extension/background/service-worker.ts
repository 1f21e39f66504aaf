/**
 * The extension's background (a service worker in Chromium, an event page in Firefox). Everything is wired and every
 * listener registered at the top level, synchronously, so that an event that wakes a stopped worker finds them. No
 * state lives in globals that matters after the worker stops: tokens, sites and settings are in storage.
 */
import browser, { type Runtime } from 'webextension-polyfill';
import type { TrackingParameters } from '../../src/contracts/bridge-contract.ts';
import type { FetchLike } from '../../src/platform/http.ts';
import { IndexedDbArea } from '../shared/indexeddb-area.ts';
import { settingsItem } from '../shared/settings.ts';
import { ApprovedSites } from './approved-sites.ts';
import { FanSession, navigatorLocks, refreshAlarmName } from './fan-session.ts';
import { backgroundRoutes } from './handlers.ts';
import { fanPlatformClient } from './platform-access.ts';
import { PromptLimiter } from './prompt-limiter.ts';
import { ProxyTokenClient } from './proxy-token-client.ts';
import { createRouter } from './router.ts';
import { classifySender, originOf } from './sender.ts';
import { signIn } from './sign-in.ts';
import { SiteApprovals } from './site-approvals.ts';
import { TokenVault } from './token-vault.ts';

const promptWindowMs = 10 * 60_000;
const promptsPerWindow = 3;

const extensionOrigin = originOf(browser.runtime.getURL('/')) ?? '';
const persistent = new IndexedDbArea();
const settings = settingsItem(persistent);
const fetchFromWorker: FetchLike = (input, init) => fetch(input, init);

// Trusted contexts only is Chromium's default for storage.session; set it anyway so a change of default cannot leak.
void (
  browser.storage.session as { setAccessLevel?: (options: { accessLevel: string }) => Promise<void> }
).setAccessLevel?.({ accessLevel: 'TRUSTED_CONTEXTS' });

const proxy = new ProxyTokenClient(async () => (await settings.get()).proxyUrl, fetchFromWorker);
const session = new FanSession({
  vault: new TokenVault(browser.storage.session, persistent),
  proxy,
  alarms: browser.alarms,
  withLock: navigatorLocks,
  now: () => Date.now(),
});
const platform = async () => fanPlatformClient(await settings.get(), session, fetchFromWorker);
const sites = new ApprovedSites(persistent);
const approvals = new SiteApprovals(
  sites,
  {
    open: async (url) => (await browser.windows.create({ url, type: 'popup', width: 440, height: 560 })).id,
    close: (windowId) => browser.windows.remove(windowId),
  },
  new PromptLimiter(promptsPerWindow, promptWindowMs, () => Date.now()),
  (approvalId) => browser.runtime.getURL(`/approve.html?approval=${approvalId}`),
  () => Date.now(),
);

// One sign-in at a time: a second request joins the window already open.
let signInInFlight: Promise<void> | undefined;
function signInOnce(tracking: TrackingParameters): Promise<void> {
  signInInFlight ??= signIn(
    {
      identity: browser.identity,
      settings: () => settings.get(),
      proxy,
      session,
      currentUserId: async () => (await (await platform()).getCurrentUser()).userId,
    },
    tracking,
  ).finally(() => {
    signInInFlight = undefined;
  });
  return signInInFlight;
}

const route = createRouter(
  backgroundRoutes({
    session,
    sites,
    approvals,
    signInLimiter: new PromptLimiter(promptsPerWindow, promptWindowMs, () => Date.now()),
    signIn: signInOnce,
    platform,
  }),
  (sender) => classifySender(sender, browser.runtime.id, extensionOrigin),
);

// sendResponse + `return true` works the same on Chromium's native API, Firefox and the polyfill.
browser.runtime.onMessage.addListener(((
  message: unknown,
  sender: Runtime.MessageSender,
  sendResponse: (response: unknown) => void,
) => {
  const reply = route(message, sender);
  if (reply === undefined) return undefined;
  void reply.then(sendResponse);
  return true;
}) as Runtime.OnMessageListenerCallback);

browser.alarms.onAlarm.addListener((alarm) => {
  if (alarm.name === refreshAlarmName) void session.onRefreshAlarm();
});

browser.windows.onRemoved.addListener((windowId) => {
  approvals.windowClosed(windowId);
});

// Alarms may be lost across browser restarts and updates: re-create the refresh alarm from the vault on every start.
void session.schedule();
