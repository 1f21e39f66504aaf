/**
 * The extension's background (a service worker in Chromium, an event page in Firefox). Everything is wired and every
 * listener registered at the top level, synchronously, so that an event that wakes a stopped worker finds them. No
 * state lives in globals that matters after the worker stops: tokens, sites and settings are in storage.
 */
/// <reference types="@crxjs/vite-plugin/client" />
import browser, { type Runtime } from 'webextension-polyfill';
import type { TrackingParameters } from '../../src/contracts/bridge-contract.ts';
import type { FetchLike } from '../../src/platform/http.ts';
import pageBridgeFile from '../content/page-bridge.iife.ts?script';
import { IndexedDbArea } from '../shared/indexeddb-area.ts';
import { settingsItem } from '../shared/settings.ts';
import { Budgets } from './budgets.ts';
import { ConnectedSites } from './connected-sites.ts';
import { displayedPollsOf } from './displayed-polls.ts';
import { FanSession, navigatorLocks, refreshAlarmName } from './fan-session.ts';
import { backgroundRoutes } from './handlers.ts';
import { pageBudgetRules, pageRequestHandler } from './page-requests.ts';
import { fanPlatformClient, withFanPlatform } from './platform-access.ts';
import { createRouter } from './router.ts';
import { classifySender, originOf } from './sender.ts';
import { ProxyTokenClient } from './proxy-token-client.ts';
import { signIn } from './sign-in.ts';
import { VoteProposals } from './vote-proposals.ts';
import { SiteAccess } from './site-access.ts';
import { SiteConnections } from './site-connections.ts';
import { TokenVault } from './token-vault.ts';
import { voteAndConfirm } from '../../src/platform/vote.ts';

/** A proposal nobody decides ends before the card stops waiting (its extension timeout is 180 s). */
const proposalExpiresAfterMs = 170_000;
const extensionWindow = { type: 'popup', width: 440, height: 620 } as const;

const extensionOrigin = originOf(browser.runtime.getURL('/')) ?? '';
const persistent = new IndexedDbArea();
const settings = settingsItem(persistent);
const fetchFromWorker: FetchLike = (input, init) => fetch(input, init);

// Trusted contexts only is Chromium's default for storage.session; set it anyway so a change of default cannot leak.
void (
  browser.storage.session as { setAccessLevel?: (options: { accessLevel: string }) => Promise<void> }
).setAccessLevel?.({ accessLevel: 'TRUSTED_CONTEXTS' });

// Firefox's match patterns cannot name a port; Chromium's can, so the bridge runs on the exact connected origin only.
const patternsNamePorts = !extensionOrigin.startsWith('moz-extension:');
const connections = new SiteConnections(
  new ConnectedSites(persistent),
  new SiteAccess(browser.scripting, browser.permissions, pageBridgeFile, patternsNamePorts),
  async () => {
    const { proxyUrl, platformApiUrl, platformAuthUrl } = await settings.get();
    return [proxyUrl, platformApiUrl, platformAuthUrl];
  },
  () => Date.now(),
  {
    displayedBy: (origin) => displayedPollsOf(browser, origin),
    onSiteEnded: (origin) => {
      proposals.endForSite(origin);
    },
  },
);
const proxy = new ProxyTokenClient(async () => (await settings.get()).proxyUrl, fetchFromWorker);
const session = new FanSession({
  vault: new TokenVault(browser.storage.session, persistent),
  proxy,
  alarms: browser.alarms,
  withLock: navigatorLocks,
  now: () => Date.now(),
  // Connected sites belong to the fan who connected them: the next fan on this browser starts with none.
  onEnded: async () => {
    proposals.endAll();
    await connections.forgetAll();
  },
  onChanged: () => {
    proposals.endAll();
  },
});
const platform = async () => fanPlatformClient(await settings.get(), session, fetchFromWorker);
const withPlatform = <T>(call: (client: Awaited<ReturnType<typeof platform>>) => Promise<T>): Promise<T> =>
  withFanPlatform(platform, call);
const openWindow = async (url: string) => (await browser.windows.create({ url, ...extensionWindow })).id;
// Connections and the session end proposals (their hooks run only after this start-up), and proposals check both.
const proposals = new VoteProposals({
  windows: { open: openWindow, close: (windowId) => browser.windows.remove(windowId) },
  pageUrl: (proposalId) => browser.runtime.getURL(`/confirm.html?proposal=${proposalId}`),
  // Never retried: a lost answer is settled by re-reading the fan's poll.
  cast: async (pollId, answerId) => {
    await withPlatform((client) => voteAndConfirm(client, pollId, answerId));
  },
  expiresAfterMs: proposalExpiresAfterMs,
  stillHolds: async ({ sessionId, site, tabId }) =>
    (await session.status()).sessionId === sessionId &&
    (await connections.isHeard(site)) &&
    (await tabShows(tabId, site)),
});

/** Whether the tab still shows a page of `site` (closed tabs and other sites: no). */
async function tabShows(tabId: number, site: string): Promise<boolean> {
  const tab = await browser.tabs.get(tabId).catch(() => undefined);
  return tab?.url !== undefined && originOf(tab.url) === site;
}

// One sign-in at a time: a second request joins the window already open.
let signInInFlight: Promise<void> | undefined;
function signInOnce(tracking: TrackingParameters = {}): Promise<void> {
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
    connections,
    proposals,
    pageRequest: pageRequestHandler({
      session,
      connections,
      budgets: new Budgets(pageBudgetRules, browser.storage.session, () => Date.now()),
      proposals,
      signIn: signInOnce,
      readUserPoll: (pollId) => withPlatform((client) => client.getUserPoll(pollId)),
      readUserPolls: (ids) =>
        withPlatform((client) => client.listUserPolls({ ids: [...ids], limit: ids.length })),
      now: () => Date.now(),
    }),
    signIn: () => signInOnce(),
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
  proposals.windowClosed(windowId);
});

// A proposal belongs to its tab's page: closing the tab or loading anything in it (another page, a reload) ends it.
browser.tabs.onRemoved.addListener((tabId) => {
  proposals.endForTab(tabId);
});
browser.tabs.onUpdated.addListener((tabId, change) => {
  if (change.status === 'loading' || change.url !== undefined) proposals.endForTab(tabId);
});

// Alarms may be lost across browser restarts and updates: re-create the refresh alarm from the vault on every start.
void session.schedule();
// The page bridge follows the stored list of connected sites (registrations do not persist everywhere).
void connections.restore();
