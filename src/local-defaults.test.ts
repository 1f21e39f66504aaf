import { describe, expect, it } from 'vitest';
import {
  demoRedirectUris,
  extensionRedirectUri,
  firefoxExtensionRedirectUri,
  firefoxRedirectUriFor,
  geckoExtensionId,
  isFirefoxRedirectUri,
} from './local-defaults.ts';

describe('the Firefox redirect URI', () => {
  it('follows Firefox’s derivation, checked against a published add-on’s redirect URI', async () => {
    // A braced-UUID add-on id and the redirect URI registered for it with an OAuth provider.
    expect(await firefoxRedirectUriFor('{4b376457-9460-4891-b28a-60499c2e3343}')).toBe(
      'https://e74fe0942ca5c6c17185e1e4d5798b0ecd5a36d4.extensions.allizom.org/',
    );
  });

  it('is the one of the extension’s gecko id, and the demo application registers it', async () => {
    expect(await firefoxRedirectUriFor(geckoExtensionId)).toBe(firefoxExtensionRedirectUri);
    expect(demoRedirectUris(4999)).toEqual([
      'http://127.0.0.1:4999/auth/callback',
      extensionRedirectUri,
      firefoxExtensionRedirectUri,
    ]);
  });

  it('is told apart from other redirect URIs', () => {
    expect(isFirefoxRedirectUri(firefoxExtensionRedirectUri)).toBe(true);
    for (const other of [
      extensionRedirectUri,
      'https://95a83fa81b73628591a5a7759ce21f6b743223c2.extensions.allizom.org.evil.example/',
      'https://95A83FA81B73628591A5A7759CE21F6B743223C2.extensions.allizom.org/',
      'https://evil.example/.extensions.allizom.org/',
      'http://95a83fa81b73628591a5a7759ce21f6b743223c2.extensions.allizom.org/',
    ]) {
      expect(isFirefoxRedirectUri(other), other).toBe(false);
    }
  });
});
