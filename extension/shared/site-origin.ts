/** An http(s) origin a fan can connect: no path, no credentials. Undefined for anything else. */
export function parseSiteOrigin(value: string): string | undefined {
  if (!URL.canParse(value)) return undefined;
  const url = new URL(value);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  if (url.username || url.password) return undefined;
  return url.origin;
}

/**
 * The host-permission and content-script pattern of a site: scheme and host, any port (Firefox's match patterns
 * cannot name a port). The background still hears only the exact connected origin.
 */
export function sitePattern(origin: string): string {
  const { protocol, hostname } = new URL(origin);
  return `${protocol}//${hostname}/*`;
}
