import { ProxyError } from '../errors.ts';

/** The proxy's error for "the shared state did not answer": 503 with `Retry-After`, never a 500. */
export function stateUnavailable(cause: unknown, retryAfterSeconds = 5): ProxyError {
  return new ProxyError(
    'state_unavailable',
    'Signing in and voting are briefly unavailable. Try again shortly.',
    { cause, retryAfterSeconds },
  );
}
