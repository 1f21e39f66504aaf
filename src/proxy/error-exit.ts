import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ProxyErrorBody } from '../contracts/proxy-contract.ts';
import { PlatformError } from '../platform/errors.ts';
import { voteRefusalMessages, voteRefusalReason } from '../platform/vote-refusal.ts';
import { ProxyError } from './errors.ts';
import type { ProxyLogger } from './logger.ts';
import type { ProxyMetrics } from './operations/metrics.ts';

/**
 * The proxy's one error exit: every failure becomes a `ProxyErrorBody` with a stable code. Platform failures are
 * mapped to what a card can act on; the platform's own bodies and messages never reach the browser.
 */
export function errorExit(logger: ProxyLogger, now: () => number, metrics: ProxyMetrics) {
  return (error: Error, c: Context): Response => {
    if (c.req.raw.signal.aborted && !(error instanceof ProxyError) && !(error instanceof PlatformError)) {
      // The client hung up (mid-body, or before the answer): nothing failed here, and nobody reads this answer.
      logger.log('info', 'client_disconnected', { method: c.req.method, path: new URL(c.req.url).pathname });
      metrics.refusal('client_disconnected');
      return c.body(null, 499 as ContentfulStatusCode);
    }
    const proxyError = toProxyError(error, now());
    const fields = {
      method: c.req.method,
      path: new URL(c.req.url).pathname,
      code: proxyError.code,
      status: proxyError.status,
      reason: proxyError.reason,
      ...(error instanceof PlatformError
        ? { platformError: error.code, platformStatus: error.status, platformCode: error.platformCode }
        : {}),
    };
    if (proxyError.code !== 'internal_error') metrics.refusal(proxyError.code);
    if (expectedInABadMinute.has(proxyError.code)) {
      // Expected in a bad minute (answered with Retry-After, or a vote the fan can send again): not the proxy's error.
      logger.log('warn', 'request_failed', fields);
    } else if (proxyError.status >= 500) {
      logger.log('error', 'request_failed', {
        ...fields,
        cause: error instanceof ProxyError || error instanceof PlatformError ? error.message : error.name,
      });
    } else {
      logger.log('info', 'request_refused', fields);
    }
    const body: ProxyErrorBody = {
      error: {
        code: proxyError.code,
        message: proxyError.message,
        ...(proxyError.retryAfterSeconds === undefined
          ? {}
          : { retryAfterSeconds: proxyError.retryAfterSeconds }),
        ...(proxyError.reason === undefined ? {} : { reason: proxyError.reason }),
      },
    };
    if (proxyError.retryAfterSeconds !== undefined)
      c.header('Retry-After', String(proxyError.retryAfterSeconds));
    c.header('Cache-Control', 'no-store');
    return c.json(body, proxyError.status as ContentfulStatusCode);
  };
}

const expectedInABadMinute = new Set(['state_unavailable', 'upstream_throttled', 'vote_not_sent']);

function toProxyError(error: unknown, now: number): ProxyError {
  if (error instanceof ProxyError) return error;
  if (error instanceof PlatformError) return fromPlatformError(error, now);
  if (error instanceof HTTPException) {
    return new ProxyError(
      error.status === 404 ? 'not_found' : 'bad_request',
      'The request was not understood.',
    );
  }
  return new ProxyError('internal_error', 'The proxy failed to answer. Try again shortly.', { cause: error });
}

function fromPlatformError(error: PlatformError, now: number): ProxyError {
  switch (error.code) {
    case 'invalid_input':
      // The platform package's input messages name the bad parameter and never carry a token.
      return new ProxyError('bad_request', error.message, { cause: error });
    case 'not_found':
      return new ProxyError('not_found', 'No such poll.', { cause: error });
    case 'bad_request':
      // The platform refused what the caller asked (a filter the proxy could not check): the caller's mistake, a 400.
      return new ProxyError(
        'bad_request',
        'The platform refused these parameters. Check the filters and try again.',
        { cause: error },
      );
    case 'throttled': {
      const retryAfterSeconds =
        error.retryAt === undefined ? 60 : Math.max(1, Math.ceil((error.retryAt.getTime() - now) / 1000));
      return new ProxyError('upstream_throttled', 'The platform is busy. Try again later.', {
        cause: error,
        retryAfterSeconds,
      });
    }
    case 'vote_refused': {
      const reason = voteRefusalReason(error);
      return new ProxyError('vote_refused', voteRefusalMessages[reason ?? 'unknown'], {
        cause: error,
        ...(reason === undefined ? {} : { reason }),
      });
    }
    case 'invalid_token':
      return new ProxyError('not_signed_in', 'Your sign-in has expired. Sign in again.', { cause: error });
    case 'access_denied':
      return new ProxyError('invalid_grant', 'The fan did not give consent.', { cause: error });
    case 'oauth_error':
      return error.oauthError === 'invalid_grant'
        ? new ProxyError('invalid_grant', 'The platform refused this code or token.', { cause: error })
        : new ProxyError('upstream_unavailable', 'The platform refused the proxy. Try again later.', {
            cause: error,
          });
    default:
      return new ProxyError(
        'upstream_unavailable',
        'The platform did not answer as expected. Try again shortly.',
        {
          cause: error,
        },
      );
  }
}
