import type { MiddlewareHandler } from 'hono';
import { csrfHeaderName } from '../contracts/proxy-contract.ts';
import { ProxyError } from './errors.ts';

/**
 * CORS from an allowlist: the exact origins configured, nothing else, never `*`. `credentials` (the session cookie)
 * only where a route needs it. A preflight from an origin not on the list is refused with the proxy's error body.
 */
export function corsFromAllowlist(
  isAllowed: (origin: string) => boolean,
  options: { readonly credentials: boolean; readonly methods: readonly string[] },
): MiddlewareHandler {
  // Not async: the common path sets headers and hands on, with no frame of its own to await (the cached poll read
  // runs through it tens of thousands of times a second).
  return (c, next) => {
    const origin = c.req.header('Origin');
    const allowed = origin !== undefined && isAllowed(origin);
    if (c.req.method === 'OPTIONS') {
      if (!allowed) throw new ProxyError('origin_not_allowed', 'This origin may not call the proxy.');
      c.header('Access-Control-Allow-Origin', origin);
      if (options.credentials) c.header('Access-Control-Allow-Credentials', 'true');
      c.header('Access-Control-Allow-Methods', options.methods.join(', '));
      c.header('Access-Control-Allow-Headers', `Content-Type, ${csrfHeaderName}, If-None-Match`);
      c.header('Access-Control-Max-Age', '600');
      c.header('Vary', 'Origin, Access-Control-Request-Headers');
      return Promise.resolve(c.body(null, 204));
    }
    // Set before the handler (cheaper than copying its Response); the error exit keeps them too.
    c.header('Vary', 'Origin', { append: true });
    if (allowed) {
      c.header('Access-Control-Allow-Origin', origin);
      if (options.credentials) c.header('Access-Control-Allow-Credentials', 'true');
      c.header('Access-Control-Expose-Headers', 'ETag, Retry-After');
    }
    return next();
  };
}
