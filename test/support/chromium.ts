// How the browser tests start Debian's Chromium: never a downloaded browser, headless, and no traffic of its own
// (no background updates, sync or QUIC), so that a test reaches only the loopback servers it started.
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
