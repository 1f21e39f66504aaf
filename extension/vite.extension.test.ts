import { describe, expect, it } from 'vitest';
import { firefoxExtensionRedirectUri, firefoxRedirectUriFor } from '../src/local-defaults.ts';
import { extensionManifest, geckoId, storeManifest } from './vite.extension.ts';

describe('the extension manifests', () => {
  it('pins the Chromium id with the key and asks for the minimal permissions', () => {
    const chrome = extensionManifest('chrome');
    expect(chrome['key']).toMatch(/^MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA/);
    expect(chrome['permissions']).toEqual(['identity', 'storage', 'alarms', 'scripting', 'activeTab']);
    // No content script anywhere until the fan connects a site; nothing a page could probe for.
    expect(chrome['content_scripts']).toBeUndefined();
    expect(chrome['web_accessible_resources']).toBeUndefined();
    expect(chrome.background).toEqual({ service_worker: 'background/service-worker.ts', type: 'module' });
  });

  it('gives the store a manifest without the development key', () => {
    const store = storeManifest(extensionManifest('chrome'));
    expect(store['key']).toBeUndefined();
    expect(store['permissions']).toEqual(extensionManifest('chrome')['permissions']);
  });

  it('derives the Firefox variant: background scripts, a gecko id, its data-collection consent, no key', () => {
    const firefox = extensionManifest('firefox');
    expect(firefox['key']).toBeUndefined();
    expect(firefox['minimum_chrome_version']).toBeUndefined();
    expect(firefox.background).toEqual({ scripts: ['background/service-worker.ts'], type: 'module' });
    expect(firefox['browser_specific_settings']).toEqual({
      gecko: {
        id: geckoId,
        strict_min_version: '140.0',
        data_collection_permissions: { required: ['authenticationInfo'] },
      },
    });
  });

  it('gives Firefox the redirect URI the sandbox and the proxy register by default', async () => {
    const firefox = extensionManifest('firefox') as {
      browser_specific_settings?: { gecko?: { id?: string } };
    };
    const id = firefox.browser_specific_settings?.gecko?.id ?? '';
    expect(await firefoxRedirectUriFor(id)).toBe(firefoxExtensionRedirectUri);
  });
});
