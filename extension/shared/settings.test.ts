import { describe, expect, it } from 'vitest';
import { demoApplication } from '../../src/local-defaults.ts';
import { FakeStorageArea } from '../testing/fake-browser.ts';
import {
  defaultSettings,
  hostPatternsFor,
  normaliseServiceUrl,
  parseSettings,
  settingsItem,
} from './settings.ts';

describe('extension settings', () => {
  it('defaults to the sandbox demo application', () => {
    expect(defaultSettings.clientId).toBe(demoApplication.clientId);
    expect(defaultSettings.partnerTag).toBe(demoApplication.partnerTag);
  });

  it('accepts https anywhere and plain http on loopback only, origins only', () => {
    expect(normaliseServiceUrl('https://proxy.example.org')).toBe('https://proxy.example.org');
    expect(normaliseServiceUrl('http://127.0.0.1:5123/')).toBe('http://127.0.0.1:5123');
    expect(normaliseServiceUrl('http://proxy.example.org')).toBeUndefined();
    expect(normaliseServiceUrl('https://user:pw@proxy.example.org')).toBeUndefined();
    expect(normaliseServiceUrl('https://proxy.example.org/path')).toBeUndefined();
    expect(normaliseServiceUrl('javascript:alert(1)')).toBeUndefined();
    expect(normaliseServiceUrl(42)).toBeUndefined();
  });

  it('falls back field by field to the defaults when stored values are wrong', async () => {
    const area = new FakeStorageArea();
    const item = settingsItem(area);
    expect(await item.get()).toEqual(defaultSettings);
    await area.set({
      settings: { proxyUrl: 'http://127.0.0.1:9', platformApiUrl: 'ftp://x', clientId: 'a b' },
    });
    expect(await item.get()).toEqual({ ...defaultSettings, proxyUrl: 'http://127.0.0.1:9' });
    expect(parseSettings('nope')).toBeUndefined();
  });

  it('names the host permissions the proxy and the platform API need', () => {
    expect(
      hostPatternsFor({
        ...defaultSettings,
        proxyUrl: 'https://p.example.org',
        platformApiUrl: 'https://api.example.org',
      }),
    ).toEqual(['https://p.example.org/*', 'https://api.example.org/*']);
  });
});
