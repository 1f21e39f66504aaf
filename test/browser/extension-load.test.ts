// The built extension in Chromium: pinned id, no web-accessible resources, the bridge's handshake on a page.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoApplication, extensionId } from '../../src/local-defaults.ts';
import { bridgePage, extensionDir, launchExtension, type LoadedExtension } from './extension-harness.ts';
import { servePage, type PageServer } from '../support/page-server.ts';

let extension: LoadedExtension;
let site: PageServer;

beforeAll(async () => {
  extension = await launchExtension();
  site = await servePage(bridgePage('Partner page'));
});

afterAll(async () => {
  await extension.close();
  await site.close();
});

describe('the built extension', () => {
  it('loads with the id pinned by the manifest key', () => {
    expect(extension.id).toBe(extensionId);
  });

  it('exposes no web-accessible resource a page could probe, and asks for the minimal permissions', async () => {
    const manifest = JSON.parse(await readFile(join(extensionDir, 'manifest.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    expect(manifest['web_accessible_resources']).toBeUndefined();
    expect(manifest['permissions']).toEqual(['identity', 'storage', 'alarms']);
    expect(manifest['host_permissions']).toEqual(['http://127.0.0.1/*', 'http://localhost/*']);
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
    await page.close();
  });

  it('ships no secret: the demo client secret is in no built file', async () => {
    const files = (await readdir(extensionDir, { recursive: true, withFileTypes: true })).filter((entry) =>
      entry.isFile(),
    );
    expect(files.length).toBeGreaterThan(5);
    for (const file of files) {
      expect(await readFile(join(file.parentPath, file.name), 'utf8')).not.toContain(
        demoApplication.clientSecret,
      );
    }
  });

  it('answers the hello handshake and the status on a page, with no token or user data', async () => {
    const page = await extension.context.newPage();
    await page.goto(site.url);
    const hello = await page.evaluate(() =>
      (window as unknown as { askExtension: (r: unknown) => Promise<unknown> }).askExtension({
        type: 'hello',
      }),
    );
    expect(hello).toEqual({ ok: true, result: { type: 'hello', version: 1 } });
    const status = await page.evaluate(() =>
      (window as unknown as { askExtension: (r: unknown) => Promise<unknown> }).askExtension({
        type: 'status',
      }),
    );
    expect(status).toEqual({
      ok: true,
      result: { type: 'status', status: { signedIn: false, siteApproved: false } },
    });
    await page.close();
  });
});
