// How the browser tests start Debian's Chromium: never a downloaded browser, headless, and no traffic of its own
// (no background updates, sync or QUIC), so that a test reaches only the loopback servers it started.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';

/** `CHROMIUM_PATH`, else Debian's `/usr/bin/chromium`. */
export function chromiumPath(): string {
  return process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
}

/** The command-line flags every launch uses (no sandbox: the tests run as root), then `extra`. */
export function chromiumArgs(extra: readonly string[] = []): string[] {
  return [
    ...extra,
    '--no-sandbox',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--disable-quic',
  ];
}

/** A headless browser for pages (a non-persistent launch: it cannot load extensions). */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath(), headless: true, args: chromiumArgs() });
}

/** A headless persistent context in `profileDir` with the unpacked extension at `extensionDir` loaded. */
export function launchWithExtension(profileDir: string, extensionDir: string): Promise<BrowserContext> {
  return chromium.launchPersistentContext(profileDir, {
    executablePath: chromiumPath(),
    headless: true,
    args: chromiumArgs([`--disable-extensions-except=${extensionDir}`, `--load-extension=${extensionDir}`]),
  });
}

/**
 * Chromium's third-party cookie setting, the `profile.cookie_controls_mode` preference (the "Third-party cookies"
 * page of the settings): 0 allows them, 1 blocks them. A fresh profile with the preference unset blocks them in
 * Debian's Chromium 156 (measured by `probeCrossSiteCookies`); Chromium has no command-line switch for it.
 */
const cookieControlsMode = { allowed: 0, blocked: 1 } as const;

/**
 * A headless browser on a fresh regular (not off-the-record) profile in `profileDir` (an empty folder the caller
 * owns and removes once the context is closed) with third-party cookies `allowed` or `blocked`, written into the
 * profile's preferences before launch.
 */
export function launchFreshProfile(
  profileDir: string,
  thirdPartyCookies: 'allowed' | 'blocked',
): Promise<BrowserContext> {
  mkdirSync(join(profileDir, 'Default'), { recursive: true });
  writeFileSync(
    join(profileDir, 'Default', 'Preferences'),
    JSON.stringify({ profile: { cookie_controls_mode: cookieControlsMode[thirdPartyCookies] } }),
  );
  return chromium.launchPersistentContext(profileDir, {
    executablePath: chromiumPath(),
    headless: true,
    args: chromiumArgs(),
    viewport: { width: 1280, height: 900 },
  });
}
