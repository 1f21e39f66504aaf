/** An http(s) origin a fan can connect: no path, no credentials. Undefined for anything else. */
export function parseSiteOrigin(value: string): string | undefined {
  if (!URL.canParse(value)) return undefined;
  const url = new URL(value);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  if (url.username || url.password) return undefined;
  return url.origin;
}

/**
 * The host-permission pattern of a site: scheme and host, any port (Firefox's match patterns cannot name a port, and
 * the popup asks for this one). The background still hears only the exact connected origin.
 */
export function sitePattern(origin: string): string {
  const { protocol, hostname } = new URL(origin);
  return `${protocol}//${hostname}/*`;
}

/**
 * The page bridge's content-script pattern where the browser can name a port (Chromium): the exact origin, its port
 * spelled out (443 and 80 too), so that no other port of the same host and no alias of it (`localhost` for
 * `127.0.0.1`) gets the content script at all.
 */
export function exactSitePattern(origin: string): string {
  const { protocol, hostname, port } = new URL(origin);
  const effectivePort = port === '' ? (protocol === 'https:' ? '443' : '80') : port;
  return `${protocol}//${hostname}:${effectivePort}/*`;
}
