// A club's own extension from one file (extension.config.json, docs/extension-store.md), built for both browsers as
// `npm run build:extension` builds it: Chromium installs it under the club's name with exactly the proxy and platform
// hosts granted, its install prompt warns about those hosts only (what docs/extension.md promises), and its Options
// open on the club's proxy, platform and application; the default build keeps the sandbox's manifest, differing from
// the club's only where the configuration speaks; the Firefox build passes Mozilla's addons-linter.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeManifest } from '../../extension/vite.extension.ts';
import {
  buildPartnerExtension,
  riversideExtension as partner,
  writePartnerExtensionConfig,
} from '../support/partner-extension.ts';
import { screenshotPath } from '../support/screenshots.ts';
import {
  ensureExtensionBuilt,
  extensionDir,
  installWarnings,
  launchExtension,
  type LoadedExtension,
} from './extension-harness.ts';
import { lintFirefoxAddon } from './firefox-addon-lint.ts';

const built = writePartnerExtensionConfig();
const partnerHosts = [
  'https://polls.riverside.example/*',
  'https://auth.platform.example/*',
  'https://api.platform.example/*',
];
let extension: LoadedExtension;

function manifestIn(folder: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(folder, 'manifest.json'), 'utf8')) as Record<string, unknown>;
}

beforeAll(async () => {
  buildPartnerExtension(built, 'chrome');
  buildPartnerExtension(built, 'firefox');
  ensureExtensionBuilt();
  extension = await launchExtension(join(built.outDir, 'chrome'));
}, 180_000);

afterAll(async () => {
  await extension.close();
  rmSync(built.folder, { recursive: true, force: true });
});

describe('a club’s extension built from extension.config.json', () => {
  it('installs in Chromium under the club’s name, granted and warning about its proxy and platform only', async () => {
    const manifest = manifestIn(join(built.outDir, 'chrome'));
    expect(manifest).toMatchObject({
      name: partner.name,
      short_name: partner.shortName,
      action: { default_title: partner.name },
      host_permissions: partnerHosts,
    });
    expect(manifest['key']).toBeUndefined();
    expect(existsSync(join(built.outDir, 'fan-polls-chrome.zip'))).toBe(true);
    // What the running extension got: its name, and exactly these hosts granted at install.
    const worker = await extension.worker();
    const running = await worker.evaluate(async () => {
      const { chrome } = globalThis as unknown as {
        chrome: {
          runtime: { getManifest(): { name: string } };
          permissions: { getAll(): Promise<{ origins?: string[] }> };
        };
      };
      const granted = (await chrome.permissions.getAll()).origins ?? [];
      return { name: chrome.runtime.getManifest().name, origins: granted.sort() };
    });
    expect(running).toEqual({ name: partner.name, origins: [...partnerHosts].sort() });
    // The install prompt for the store manifest: the three hosts by name, in alphabetical order as Chromium lists them
    // (docs/extension-store.md), nothing about websites.
    expect(await installWarnings(extension, storeManifest(manifest))).toEqual([
      'Read and change your data on api.platform.example, auth.platform.example, and polls.riverside.example',
    ]);
  });

  it('opens its Options on the club’s proxy, platform and application, as shipped, under its name', async () => {
    const page = await extension.context.newPage();
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`chrome-extension://${extension.id}/options.html`);
    const fields = ['proxyUrl', 'platformApiUrl', 'platformAuthUrl', 'clientId', 'partnerTag'] as const;
    await page.locator('input[name="proxyUrl"]').waitFor();
    const shown = Object.fromEntries(
      await Promise.all(
        fields.map(async (name) => [name, await page.locator(`input[name="${name}"]`).inputValue()] as const),
      ),
    );
    expect(shown).toEqual({
      proxyUrl: partner.proxyUrl,
      platformApiUrl: partner.platformApiUrl,
      platformAuthUrl: partner.platformAuthUrl,
      clientId: partner.clientId,
      partnerTag: partner.partnerTag,
    });
    // The shipped settings: no "Not the shipped settings" note; the page names the club's extension.
    expect(await page.getByTestId('options-changed').count()).toBe(0);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(`${partner.name} settings`);
    await page.screenshot({ path: screenshotPath('extension-partner-options.png') });
    // The popup's header names it too.
    await page.goto(`chrome-extension://${extension.id}/popup.html`);
    await expect.poll(() => page.locator('.brand').textContent()).toBe(partner.name);
    await page.close();
  });

  it('leaves the default build the sandbox’s: the manifests differ only where the configuration speaks', () => {
    const defaults = manifestIn(extensionDir);
    const club = manifestIn(join(built.outDir, 'chrome'));
    const keys = [...new Set([...Object.keys(defaults), ...Object.keys(club)])];
    const differing = keys.filter((key) => JSON.stringify(defaults[key]) !== JSON.stringify(club[key]));
    expect(differing.sort()).toEqual(['action', 'host_permissions', 'key', 'name', 'short_name']);
    expect({ ...(club['action'] as object), default_title: 'Fan Polls' }).toEqual(defaults['action']);
    // The default is the repository's manifest.json: its name, development key and loopback hosts.
    const source = JSON.parse(
      readFileSync(new URL('../../manifest.json', import.meta.url), 'utf8'),
    ) as Record<string, unknown>;
    for (const key of differing.filter((name) => name !== 'action'))
      expect(defaults[key], key).toEqual(source[key]);
  });

  it('passes addons-linter for Firefox, unpacked and as the store zip, with the club’s add-on id and hosts', async () => {
    const firefox = manifestIn(join(built.outDir, 'firefox'));
    expect(firefox).toMatchObject({
      name: partner.name,
      host_permissions: partnerHosts,
      browser_specific_settings: { gecko: { id: partner.firefoxAddonId } },
    });
    for (const sourceDir of [join(built.outDir, 'firefox'), join(built.outDir, 'fan-polls-firefox.zip')])
      expect(await lintFirefoxAddon(sourceDir)).toEqual({ errors: [], warnings: [] });
  }, 60_000);
});
