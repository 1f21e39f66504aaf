import { isLoopbackHost } from './loopback.ts';

/**
 * Pages on the developer's own machine, which a sandbox proxy allows without listing them
 * (`FAN_POLLS_ALLOW_LOOPBACK_ORIGINS`): the proxy's CORS and `frame-ancestors`, and the configurator's origin check.
 */
export function isLoopbackOrigin(origin: string): boolean {
  try {
    const url = new URL(origin);
    const host = url.hostname;
    return url.protocol === 'http:' && url.origin === origin && isLoopbackHost(host);
  } catch {
    return false;
  }
}

/**
 * The same pages as CSP sources, but for `http://[::1]`: CSP's host-source grammar has no IP-literal form, so every
 * engine refuses such a source with a console error. A page on `[::1]` uses `localhost` or `127.0.0.1` instead.
 */
export const loopbackOriginSources: readonly string[] = ['http://localhost:*', 'http://127.0.0.1:*'];

/** Whether an origin can be written as a CSP source: not an IPv6 literal (`http://[::1]:8080`), which CSP cannot name. */
export const isCspSource = (origin: string): boolean => !origin.includes('[');
