import type { Context, MiddlewareHandler } from 'hono';
import { onErrorAnswers } from './cors.ts';
import { requestIdHeader } from './operations/access-log.ts';

/**
 * The header every answer of the proxy carries besides its request id: set by `app.ts`'s middleware, and by the
 * routes that build their whole answer once and serve it as it is (the cached poll read).
 */
export const noSniffHeader = { name: 'X-Content-Type-Options', value: 'nosniff' } as const;

/**
 * Sets `X-Request-Id` (from the access log) and `nosniff` on every answer. Before the handler (a header added after
 * it makes Hono copy the finished Response), except where `buildsOwnAnswer`: those routes put both in the answer they
 * build, and the middleware adds them only to the error exit's answers.
 */
export function everyAnswerHeaders(buildsOwnAnswer: (c: Context) => boolean): MiddlewareHandler {
  const setHeaders = (c: Context) => {
    c.header(requestIdHeader, c.get('requestId'));
    c.header(noSniffHeader.name, noSniffHeader.value);
  };
  return (c, next) => {
    if (!buildsOwnAnswer(c)) {
      setHeaders(c);
      return next();
    }
    return onErrorAnswers(c, next, () => {
      setHeaders(c);
    });
  };
}
