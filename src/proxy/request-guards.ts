import type { MiddlewareHandler } from 'hono';
import { csrfHeaderName, csrfHeaderValue } from '../contracts/proxy-contract.ts';
import { PlatformError } from '../platform/errors.ts';
import { ProxyError } from './errors.ts';

/**
 * CSRF defence for fan routes: the request must come from an allowed page (`Origin` on the list) and carry the
 * custom header, which no cross-site form or image can send and which forces a CORS preflight for `fetch`.
 */
export function requireAllowedPage(isAllowed: (origin: string) => boolean): MiddlewareHandler {
  return async (c, next) => {
    const origin = c.req.header('Origin');
    // A page on the proxy's own origin (the banner's page it serves): browsers always send Sec-Fetch-Site, which no
    // page can set; they leave Origin out of a same-origin GET and send the proxy's own on a POST (vote, sign-out).
    const sameOriginPage = c.req.header('Sec-Fetch-Site') === 'same-origin';
    if (!sameOriginPage && (origin === undefined || !isAllowed(origin))) {
      throw new ProxyError('origin_not_allowed', 'This request must come from an allowed page (Origin).');
    }
    if (c.req.header(csrfHeaderName) !== csrfHeaderValue) {
      throw new ProxyError('csrf_header_missing', `This request must carry the ${csrfHeaderName} header.`);
    }
    await next();
  };
}

/** Token mediation answers the extension only: its origin, and a JSON body (which forces a preflight). */
export function requireExtensionOrigin(isExtension: (origin: string) => boolean): MiddlewareHandler {
  return async (c, next) => {
    const origin = c.req.header('Origin');
    if (origin === undefined || !isExtension(origin)) {
      throw new ProxyError('extension_not_allowed', 'Token mediation answers the Fan Polls extension only.');
    }
    const contentType = c.req.header('Content-Type') ?? '';
    if (!/^application\/json\b/i.test(contentType)) {
      throw new ProxyError('invalid_body', 'Send a JSON body (Content-Type: application/json).');
    }
    await next();
  };
}

/** Reads a small JSON object body; anything else is `invalid_body`. */
export async function readJsonObject(
  request: Request,
  maxBytes = 8 * 1024,
): Promise<Record<string, unknown>> {
  const text = await request.text();
  if (text.length > maxBytes) throw new ProxyError('invalid_body', 'The body is too large.');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ProxyError('invalid_body', 'The body is not JSON.');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ProxyError('invalid_body', 'The body must be a JSON object.');
  }
  return value as Record<string, unknown>;
}

export function requiredString(body: Record<string, unknown>, name: string, maxLength = 4096): string {
  const value = body[name];
  if (typeof value !== 'string' || value === '' || value.length > maxLength) {
    throw new ProxyError('invalid_body', `${name} must be a non-empty string.`);
  }
  return value;
}

/** Runs a parse of the request's query or path: the platform's `invalid_input` becomes `invalid_filter` (400). */
export function checkedInput<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof PlatformError && error.code === 'invalid_input') {
      throw new ProxyError('invalid_filter', error.message, { cause: error });
    }
    throw error;
  }
}
