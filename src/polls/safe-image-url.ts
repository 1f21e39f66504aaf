import { isLoopbackHost } from '../contracts/loopback.ts';

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
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return url.href;
  return undefined;
}
