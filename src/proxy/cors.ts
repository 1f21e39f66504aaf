import type { Context, MiddlewareHandler } from 'hono';
import { csrfHeaderName } from '../contracts/proxy-contract.ts';
import { ProxyError } from './errors.ts';

export interface CorsOptions {
  readonly credentials: boolean;
  readonly methods: readonly string[];
}

/**
 * What a page may read of an answer besides the CORS-safelisted headers (`Cache-Control` is one): `Age` times a
 * card's next poll read (`src/polls/answer-freshness.ts`).
 */
export const exposedHeaders = 'Age, ETag, Retry-After';

/**
 * CORS from an allowlist: the exact origins configured, nothing else, never `*`. `credentials` (the session cookie)
 * only where a route needs it. A preflight from an origin not on the list is refused with the proxy's error body.
 */
export function corsFromAllowlist(
  isAllowed: (origin: string) => boolean,
  options: CorsOptions,
): MiddlewareHandler {
  // Not async: the common path sets headers and hands on, with no frame of its own to await.
  return (c, next) => {
    if (c.req.method === 'OPTIONS') return Promise.resolve(preflight(c, isAllowed, options));
    // Set before the handler (cheaper than copying its Response); the error exit keeps them too.
    setCorsHeaders(c, isAllowed, options);
    return next();
  };
}

/**
 * The same CORS for routes that build their whole answer themselves (the cached poll read: `allowedOriginOf` gives
 * them the origin to name): preflights as above, and the headers set only on the error exit's answers (a refused
 * read, an unknown path), so a served read costs no per-request header work here.
 */
export function corsForPrebuiltAnswers(
  isAllowed: (origin: string) => boolean,
  options: CorsOptions,
): MiddlewareHandler {
  return async (c, next) => {
    if (c.req.method === 'OPTIONS') return preflight(c, isAllowed, options);
    await onErrorAnswers(c, next, () => {
      setCorsHeaders(c, isAllowed, options);
    });
  };
}

/**
 * Runs `next`, then `addHeaders` when the answer is the error exit's: a handler's error (handled inside `next`) or
 * one thrown through it (no route: `notFound`), which is answered only after `addHeaders` has run.
 */
export async function onErrorAnswers(
  c: Context,
  next: () => Promise<void>,
  addHeaders: () => void,
): Promise<void> {
  try {
    await next();
  } catch (error) {
    addHeaders();
    throw error;
  }
  if (c.error !== undefined) addHeaders();
}

/** The request's `Origin` when it is on the list (the value `Access-Control-Allow-Origin` names), else undefined. */
export function allowedOriginOf(c: Context, isAllowed: (origin: string) => boolean): string | undefined {
  const origin = c.req.header('Origin');
  return origin !== undefined && isAllowed(origin) ? origin : undefined;
}

function preflight(c: Context, isAllowed: (origin: string) => boolean, options: CorsOptions): Response {
  const origin = allowedOriginOf(c, isAllowed);
  if (origin === undefined) throw new ProxyError('origin_not_allowed', 'This origin may not call the proxy.');
  c.header('Access-Control-Allow-Origin', origin);
  if (options.credentials) c.header('Access-Control-Allow-Credentials', 'true');
  c.header('Access-Control-Allow-Methods', options.methods.join(', '));
  c.header('Access-Control-Allow-Headers', `Content-Type, ${csrfHeaderName}, If-None-Match`);
  c.header('Access-Control-Max-Age', '600');
  c.header('Vary', 'Origin, Access-Control-Request-Headers');
  return c.body(null, 204);
}

function setCorsHeaders(c: Context, isAllowed: (origin: string) => boolean, options: CorsOptions): void {
  c.header('Vary', 'Origin', { append: true });
  const origin = allowedOriginOf(c, isAllowed);
  if (origin !== undefined) {
    c.header('Access-Control-Allow-Origin', origin);
    if (options.credentials) c.header('Access-Control-Allow-Credentials', 'true');
    c.header('Access-Control-Expose-Headers', exposedHeaders);
  }
}
