import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { ProxyError } from './errors.ts';

/** Methods whose requests carry no body (the fetch API refuses one): nothing to measure. */
const bodilessMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Hono's `bodyLimit` for requests that can carry a body; a body over `maxBytes` is refused (413 `body_too_large`)
 * before it is read. GET, HEAD and OPTIONS pass straight on: `bodyLimit` reads `c.req.raw.body`, which makes the
 * Node adapter build a full `Request` for every poll read (a sixth of the cached read's time, measured with
 * `npm run bench -- proxy` and `node --cpu-prof`).
 */
export function limitRequestBodies(maxBytes: number): MiddlewareHandler {
  const limit = bodyLimit({
    maxSize: maxBytes,
    onError: () => {
      throw new ProxyError('body_too_large', `The body is larger than ${maxBytes} bytes.`);
    },
  });
  return (c, next) => (bodilessMethods.has(c.req.method) ? next() : limit(c, next));
}
