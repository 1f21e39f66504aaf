/**
 * The embedded default: where the sandbox, the proxy and the demo page listen on this machine, and the fixed demo
 * application registered in the sandbox. The sandbox and the proxy both read these; they never import each other.
 */
export const localPorts = {
  sandboxApi: 4010,
  sandboxAuth: 4011,
  proxy: 4020,
  demo: 4030,
} as const;

export const loopbackHost = '127.0.0.1';

/** The extension's id, pinned by the `key` in manifest.json. */
export const extensionId = 'mkpodpnnmdfbdhcedkibocckbggbgkjd';

/** The redirect `identity.getRedirectURL()` gives the extension in Chromium. */
export const extensionRedirectUri = `https://${extensionId}.chromiumapp.org/`;

/** The extension's Firefox add-on id, pinned by `browser_specific_settings.gecko.id` in the Firefox build. */
export const geckoExtensionId = 'fan-polls@example.org';

/** Firefox's redirect host: its `extensions.webextensions.identity.redirectDomain` preference's default. */
const firefoxRedirectDomain = 'extensions.allizom.org';

/**
 * The redirect `identity.getRedirectURL()` gives the extension in Firefox: `https://<hex SHA-1 of the add-on id>.
 * extensions.allizom.org/` (Firefox's `ext-identity.js`). It depends on the add-on id only, never on the install, so
 * it is registered up front. A constant because modules load synchronously and WebCrypto is async;
 * `firefoxRedirectUriFor(geckoExtensionId)` computes it and a test keeps the two equal.
 */
export const firefoxExtensionRedirectUri =
  'https://95a83fa81b73628591a5a7759ce21f6b743223c2.extensions.allizom.org/';

/** Firefox's derivation of an add-on's redirect URI (SHA-1 of the id's UTF-8 bytes, lowercase hex). */
export async function firefoxRedirectUriFor(addonId: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-1', new TextEncoder().encode(addonId));
  const hex = Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `https://${hex}.${firefoxRedirectDomain}/`;
}

/** True for a Firefox `identity.getRedirectURL()` (any add-on's), false for anything else. */
export function isFirefoxRedirectUri(uri: string): boolean {
  return /^https:\/\/[0-9a-f]{40}\.extensions\.allizom\.org\/$/.test(uri);
}

/** The demo application: fixed and documented so that partners can try the sandbox with no setup. */
export const demoApplication = {
  clientId: 'fan-polls-demo',
  clientSecret: 'fan-polls-demo-secret',
  partnerTag: 'fan-polls-demo',
  name: 'Fan Polls demo',
} as const;

export function localUrl(port: number): string {
  return `http://${loopbackHost}:${port}`;
}

/** Redirect URIs the demo application registers: the proxy's sign-in callback and the extension's (Chromium, Firefox). */
export function demoRedirectUris(proxyPort: number = localPorts.proxy): string[] {
  return [`${localUrl(proxyPort)}/auth/callback`, extensionRedirectUri, firefoxExtensionRedirectUri];
}
