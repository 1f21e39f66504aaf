// How the browser tests start Debian's Firefox ESR: never a downloaded browser, headless, driven over WebDriver BiDi
// by puppeteer-core (playwright-core drives only its own patched Firefox), on a fresh profile whose preferences stop
// every connection of Firefox's own, so that a test reaches only the loopback servers it started.
import { existsSync } from 'node:fs';
import puppeteer, { type Browser } from 'puppeteer-core';
import { firefoxExtensionRedirectUri, geckoExtensionId } from '../../src/local-defaults.ts';

/** `FIREFOX_PATH`, else Debian's `/usr/bin/firefox-esr` (`apt-get install -y firefox-esr`). */
export function firefoxPath(): string {
  return process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';
}

export function firefoxInstalled(): boolean {
  return existsSync(firefoxPath());
}

/** Where a server no test starts would be: every URL preference below points here or is emptied. */
const nowhere = 'http://127.0.0.1:9/';

/**
 * Preferences that keep Firefox off the network, over puppeteer's own test profile (which already turns off updates,
 * Normandy, safe browsing lists, health reports and the add-on cache). Each line names the service it stops.
 */
export const firefoxNoNetworkPrefs: Readonly<Record<string, string | number | boolean>> = {
  // Application, add-on, search engine and media plug-in (OpenH264, Widevine) updates.
  'app.update.enabled': false,
  'app.update.auto': false,
  'app.update.url': nowhere,
  'extensions.update.enabled': false,
  'extensions.getAddons.cache.enabled': false,
  'extensions.systemAddon.update.enabled': false,
  'extensions.systemAddon.update.url': nowhere,
  'browser.search.update': false,
  'media.gmp-manager.updateEnabled': false,
  'media.gmp-manager.url': nowhere,
  // Telemetry, health reports, crash reports, studies.
  'toolkit.telemetry.enabled': false,
  'toolkit.telemetry.unified': false,
  'toolkit.telemetry.archive.enabled': false,
  'toolkit.telemetry.server': nowhere,
  'datareporting.healthreport.uploadEnabled': false,
  'datareporting.policy.dataSubmissionEnabled': false,
  'browser.crashReports.unsubmittedCheck.enabled': false,
  'app.normandy.enabled': false,
  'app.normandy.api_url': '',
  'app.shield.optoutstudies.enabled': false,
  // Captive portal and connectivity checks.
  'network.captive-portal-service.enabled': false,
  'network.connectivity-service.enabled': false,
  'captivedetect.canonicalURL': '',
  // Remote settings (blocklists, certificate revocation lists, intermediates) and the add-on blocklist.
  'services.settings.server': nowhere,
  'extensions.blocklist.enabled': false,
  'security.remote_settings.crlite_filters.enabled': false,
  'security.remote_settings.intermediates.enabled': false,
  'security.OCSP.enabled': 0,
  // Safe browsing lists and download checks.
  'browser.safebrowsing.malware.enabled': false,
  'browser.safebrowsing.phishing.enabled': false,
  'browser.safebrowsing.downloads.enabled': false,
  'browser.safebrowsing.downloads.remote.enabled': false,
  'browser.safebrowsing.blockedURIs.enabled': false,
  'browser.safebrowsing.provider.mozilla.updateURL': '',
  'browser.safebrowsing.provider.google4.updateURL': '',
  // Push, sync, Pocket, new-tab content, recommendations, geolocation, time servers.
  'dom.push.enabled': false,
  'dom.push.serverURL': '',
  'identity.fxaccounts.enabled': false,
  'extensions.pocket.enabled': false,
  'browser.newtabpage.enabled': false,
  'browser.newtabpage.activity-stream.feeds.topsites': false,
  'browser.newtabpage.activity-stream.feeds.section.topstories': false,
  'browser.discovery.enabled': false,
  'extensions.htmlaboutaddons.recommendations.enabled': false,
  'geo.enabled': false,
  'geo.provider.network.url': '',
  'network.sntp.pools': '',
  // Speculative connections, prefetching, DNS over HTTPS.
  'network.prefetch-next': false,
  'network.dns.disablePrefetch': true,
  'network.http.speculative-parallel-limit': 0,
  'browser.urlbar.speculativeConnect.enabled': false,
  'network.trr.mode': 5,
  // Firefox looks the sign-in redirect host up before it catches the redirect: answered as loopback, no DNS query.
  'network.dns.localDomains': new URL(firefoxExtensionRedirectUri).host,
};

/** A running Firefox with the add-on installed. */
export interface FirefoxWithExtension {
  readonly browser: Browser;
  /** `moz-extension://<uuid>` of the installed add-on, pinned before launch. */
  readonly extensionOrigin: string;
  /** The add-on id Firefox reports for the install (the manifest's gecko id). */
  readonly addonId: string;
  close(): Promise<void>;
}

/**
 * Headless Firefox on a fresh profile (puppeteer makes and removes it), the no-network preferences, the add-on's
 * moz-extension UUID pinned (Firefox picks a random one per profile otherwise), and the unpacked extension at
 * `extensionDir` installed as a temporary add-on over BiDi's `webExtension.install` (Firefox 138 and later).
 */
export async function launchFirefoxWithExtension(
  extensionDir: string,
  extensionUuid: string,
): Promise<FirefoxWithExtension> {
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: firefoxPath(),
    headless: true,
    // Lets BiDi open the add-on's own pages (moz-extension://), which it refuses to navigate to by default.
    args: ['--remote-allow-system-access'],
    // Release builds ignore `services.settings.server` (and go on asking Mozilla's server) unless this is set.
    env: { ...process.env, MOZ_REMOTE_SETTINGS_DEVTOOLS: '1' },
    extraPrefsFirefox: {
      ...firefoxNoNetworkPrefs,
      'extensions.webextensions.uuids': JSON.stringify({ [geckoExtensionId]: extensionUuid }),
    },
  });
  let addonId: string;
  try {
    addonId = await browser.installExtension(extensionDir);
  } catch (error) {
    await browser.close();
    throw error;
  }
  return {
    browser,
    extensionOrigin: `moz-extension://${extensionUuid}`,
    addonId,
    close: () => browser.close(),
  };
}
