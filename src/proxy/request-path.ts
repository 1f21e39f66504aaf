import type { Context, MiddlewareHandler } from 'hono';
import { ProxyError } from './errors.ts';

/**
 * Request paths the proxy can read: every percent-escape decodes (UTF-8) and none decodes to a control character.
 * Anything else is the caller's mistake, a 400 `bad_request` with the proxy's error body, never a `URIError` (500).
 */
export function wellFormedPaths(): MiddlewareHandler {
  // Not async, and only a path with an escape is decoded: the cached poll read runs through here too.
  return (c, next) => {
    const path = rawPath(c);
    if (path.includes('%')) decodePath(path);
    return next();
  };
}

/** The percent-decoded path after `${group}/` (`/widget/v0.1.0/x.js` in `/widget`: `v0.1.0/x.js`); '' when none. */
export function pathInGroup(c: Context, group: string): string {
  const path = rawPath(c);
  const at = path.indexOf(`${group}/`);
  return at === -1 ? '' : decodePath(path.slice(at + group.length + 1));
}

/** `decodeURIComponent`, with a bad escape or a control character as `bad_request`. */
function decodePath(path: string): string {
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch (error) {
    throw new ProxyError('bad_request', 'The request path is not valid percent-encoding.', { cause: error });
  }
  if (/\p{Cc}/u.test(decoded)) {
    throw new ProxyError('bad_request', 'The request path holds a control character.');
  }
  return decoded;
}

/** The path as the client sent it (the fetch API's URL: escapes kept, no query). */
function rawPath(c: Context): string {
  const url = c.req.url;
  const start = url.indexOf('/', url.indexOf('://') + 3);
  if (start === -1) return '/';
  const query = url.indexOf('?', start);
  const hash = url.indexOf('#', start);
  const end = Math.min(query === -1 ? url.length : query, hash === -1 ? url.length : hash);
  return url.slice(start, end);
}
