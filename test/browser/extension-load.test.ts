// The built extension in Chromium: pinned id, least privilege (no content script until the fan connects a site, no
// install warning about websites, nothing web-accessible), and the bridge only on the site the fan connected.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoApplication, extensionId } from '../../src/local-defaults.ts';
import { storeManifest } from '../../extension/vite.extension.ts';
import {
  askFromScript,
  bridgePage,
  connectSite,
  extensionDir,
  installWarnings,
  launchExtension,
  type LoadedExtension,
} from './extension-harness.ts';
import { servePage, type PageServer } from '../support/page-server.ts';

let extension: LoadedExtension;
let site: PageServer;
let otherSite: PageServer;

async function builtManifest(): Promise<Record<string, unknown>> {
  return JSON.parse(await readFile(join(extensionDir, 'manifest.json'), 'utf8')) as Record<string, unknown>;
}

beforeAll(async () => {
  extension = await launchExtension();
  site = await servePage(bridgePage('Partner page'));
  otherSite = await servePage(bridgePage('Another site'));
});

afterAll(async () => {
  await extension.close();
  await site.close();
  await otherSite.close();
});

describe('the built extension', () => {
  it('loads with the id pinned by the manifest key', () => {
    expect(extension.id).toBe(extensionId);
  });

  it('asks for no access to websites at install, runs no content script and exposes nothing a page could probe', async () => {
    const manifest = await builtManifest();
    expect(manifest['content_scripts']).toBeUndefined();
    expect(manifest['web_accessible_resources']).toBeUndefined();
    expect(manifest['permissions']).toEqual(['identity', 'storage', 'alarms', 'scripting', 'activeTab']);
    expect(manifest['host_permissions']).toEqual(['http://127.0.0.1/*', 'http://localhost/*']);
    // Chromium's own install-prompt warnings for the store manifest, as its Web Store would show them.
    const warnings = await installWarnings(extension, storeManifest(manifest));
    // The sandbox's loopback addresses only (docs/extension.md states this warning); nothing about all websites.
    expect(warnings).toEqual(['Read and change your data on 127.0.0.1 and localhost']);
    const page = await extension.context.newPage();
    await page.goto(site.url);
    const probe = await page.evaluate(
      (id) =>
        fetch(`chrome-extension://${id}/content/page-bridge.iife.js`).then(
          () => 'readable',
          () => 'blocked',
        ),
      extension.id,
    );
    expect(probe).toBe('blocked');
    // Not connected: the page cannot even learn that the extension is installed.
    expect(await askFromScript(page, { type: 'hello' }, 1500)).toEqual({ timeout: true });
    await page.close();
  });

  it('ships no secret and no development key in the store zip', async () => {
    const files = (await readdir(extensionDir, { recursive: true, withFileTypes: true })).filter((entry) =>
      entry.isFile(),
    );
    expect(files.length).toBeGreaterThan(5);
    for (const file of files) {
      expect(await readFile(join(file.parentPath, file.name), 'utf8')).not.toContain(
        demoApplication.clientSecret,
      );
    }
    const zip = await readFile(join(extensionDir, '..', 'fan-polls-chrome.zip'));
    expect(zip.includes(Buffer.from('"key"'))).toBe(false);
    expect(zip.includes(Buffer.from(String((await builtManifest())['key']).slice(0, 40)))).toBe(false);
  });

  it('answers the handshake on the connected site only, with no token or user data', async () => {
    const page = await extension.context.newPage();
    await page.goto(site.url);
    await connectSite(extension, page);
    expect(await askFromScript(page, { type: 'hello' })).toEqual({
      ok: true,
      result: { type: 'hello', version: 2 },
    });
    expect(await askFromScript(page, { type: 'status' })).toEqual({
      ok: true,
      result: { type: 'status', status: { signedIn: false } },
    });
    // Another origin on the same host (another port): the script may be injected there, the background hears nothing.
    const other = await extension.context.newPage();
    await other.goto(otherSite.url);
    expect(await askFromScript(other, { type: 'hello' }, 1500)).toEqual({ timeout: true });
    await other.close();
    await page.close();
  });
});
