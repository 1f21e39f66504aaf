/** Page-wide settings the script tag gives (`data-proxy`); an element's own attribute wins over them. */
export const widgetConfig: { proxyUrl: string | undefined } = { proxyUrl: undefined };

/** An absolute http(s) URL without credentials, or undefined. Relative to the page's URL in a browser only. */
export function readProxyUrl(
  value: string | null | undefined,
  base = typeof location === 'undefined' ? undefined : location.href,
): string | undefined {
  if (!value) return undefined;
  try {
    const url = new URL(value, base);
    if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password)
      return undefined;
    return url.href.replace(/\/+$/, '');
  } catch {
    return undefined;
  }
}
