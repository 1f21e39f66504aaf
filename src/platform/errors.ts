/**
 * The one error type of everything that talks to the platform. `code` is stable and is what callers branch on;
 * `message` is for people and never carries a token or a secret.
 */

export const platformErrorCodes = [
  /** The token is unknown, malformed, expired or revoked (900901/900903), or a refresh failed with invalid_grant. */
  'invalid_token',
  /** An application token on a user route, or the reverse (900905). */
  'wrong_token_kind',
  /** No Authorization header reached the gateway (900902). */
  'missing_credentials',
  /** 403, e.g. the application is not subscribed (900908). */
  'forbidden',
  /** The resource does not exist (a backend 404 such as "Entity not found"). */
  'not_found',
  /** The gateway does not know the operation: a removed or unknown path (gateway 404) or method (405). */
  'removed_operation',
  /** 429 or the gateway's throttling codes; `retryAt` says when to try again. */
  'throttled',
  /** Another 4xx, with the platform's description. */
  'bad_request',
  /** The platform refused a vote (any 4xx of the vote route). */
  'vote_refused',
  /** 5xx or anything not understood. */
  'platform_error',
  /** The request never got an answer (DNS, connection refused, reset). */
  'network',
  /** The request took longer than its timeout. */
  'timeout',
  /** A success status with a body that is not what the route returns. */
  'malformed_response',
  /** An input failed its check before any request left. */
  'invalid_input',
  /** The OAuth server answered with an OAuth error (`oauthError`, `oauthErrorDescription`). */
  'oauth_error',
  /** The fan refused consent on the authorize page. */
  'access_denied',
] as const;

export type PlatformErrorCode = (typeof platformErrorCodes)[number];

export interface PlatformErrorDetails {
  /** HTTP status of the answer, when there was one. */
  readonly status?: number;
  /** The gateway's own code (`"900901"`), when the body had one. */
  readonly platformCode?: string;
  /** When a throttled caller may try again. */
  readonly retryAt?: Date;
  /** The OAuth `error` (`invalid_grant`, `invalid_client`, ...). */
  readonly oauthError?: string;
  readonly oauthErrorDescription?: string;
  readonly cause?: unknown;
}

export class PlatformError extends Error {
  override readonly name = 'PlatformError';
  readonly code: PlatformErrorCode;
  readonly status: number | undefined;
  readonly platformCode: string | undefined;
  readonly retryAt: Date | undefined;
  readonly oauthError: string | undefined;
  readonly oauthErrorDescription: string | undefined;

  constructor(code: PlatformErrorCode, message: string, details: PlatformErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.code = code;
    this.status = details.status;
    this.platformCode = details.platformCode;
    this.retryAt = details.retryAt;
    this.oauthError = details.oauthError;
    this.oauthErrorDescription = details.oauthErrorDescription;
  }
}

export function isPlatformError(value: unknown, code?: PlatformErrorCode): value is PlatformError {
  return value instanceof PlatformError && (code === undefined || value.code === code);
}

/** Turns what a `fetch` threw into `network` or `timeout`; a PlatformError passes through unchanged. */
export function errorFromFetchFailure(error: unknown, what: string): PlatformError {
  if (error instanceof PlatformError) return error;
  const name = error instanceof Error || error instanceof DOMException ? error.name : '';
  if (name === 'TimeoutError') {
    return new PlatformError('timeout', `${what}: no answer within the timeout`, { cause: error });
  }
  if (name === 'AbortError') {
    return new PlatformError('timeout', `${what}: the request was aborted`, { cause: error });
  }
  return new PlatformError('network', `${what}: the request did not reach the platform`, { cause: error });
}

/** Socket errors that mean no connection was made, so nothing was sent (Node's and undici's codes). */
const notConnectedCodes = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/**
 * Whether a failed request certainly never reached the platform: it was held (by the proxy or the gateway's 429:
 * throttling answers before the backend), stopped before it left (no credentials, bad input), or its connection was
 * never made. A reset or a timeout after connecting is not certain: the request may have arrived.
 */
export function neverReachedPlatform(error: PlatformError): boolean {
  if (['throttled', 'missing_credentials', 'invalid_input'].includes(error.code)) return true;
  if (error.code !== 'network') return false;
  let cause: unknown = error.cause;
  for (let depth = 0; typeof cause === 'object' && cause !== null && depth < 5; depth += 1) {
    const { code, cause: next } = cause as { code?: unknown; cause?: unknown };
    if (typeof code === 'string' && notConnectedCodes.has(code)) return true;
    cause = next;
  }
  return false;
}
