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

/** Redirect URIs the demo application registers: the proxy's sign-in callback and the extension's. */
export function demoRedirectUris(proxyPort: number = localPorts.proxy): string[] {
  return [`${localUrl(proxyPort)}/auth/callback`, extensionRedirectUri];
}
