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

/** The same pages as CSP sources. */
export const loopbackOriginSources: readonly string[] = [
  'http://localhost:*',
  'http://127.0.0.1:*',
  'http://[::1]:*',
];
