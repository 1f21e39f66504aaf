/** Hosts where plain http is acceptable: the sandbox serves its assets over http on loopback. */
const loopbackHosts = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * The URL as a safe image source, or undefined: `https:` anywhere, `http:` on loopback only, no credentials in the
 * URL. Lit does not sanitise URLs, so every platform URL passes here before it reaches an `src` attribute.
 */
export function safeImageUrl(candidate: string): string | undefined {
  let url: URL;
  try {
    url = new URL(candidate.trim());
  } catch {
    return undefined;
  }
  if (url.username !== '' || url.password !== '') return undefined;
  if (url.protocol === 'https:') return url.href;
  if (url.protocol === 'http:' && loopbackHosts.has(url.hostname)) return url.href;
  return undefined;
}
