import { demoApplication } from '../local-defaults.ts';
import { findFanByUsername } from './data/fans.ts';
import type { Sandbox } from './sandbox.ts';

/**
 * Helpers for tests that drive the sandbox in-process: tokens issued straight from the token store (no OAuth
 * round trip) and requests with them.
 */
export function applicationToken(sandbox: Sandbox, clientId: string = demoApplication.clientId): string {
  return sandbox.state.tokens.issueApplicationToken(clientId).accessToken;
}

/** A user token for a seeded fan by username (`alex`, `sam`, `jo`, `kim`, `rex`). */
export function fanToken(
  sandbox: Sandbox,
  username: string,
  clientId: string = demoApplication.clientId,
): string {
  const fan = findFanByUsername(username);
  if (!fan) throw new Error(`No seeded fan named ${username}`);
  return sandbox.state.tokens.issueUserTokens(clientId, fan.userId).accessToken;
}

export function apiRequest(
  sandbox: Sandbox,
  path: string,
  token?: string,
  init: RequestInit = {},
): Promise<Response> {
  const headers = new Headers(init.headers);
  if (token !== undefined) headers.set('Authorization', `Bearer ${token}`);
  return Promise.resolve(sandbox.api.request(path, { ...init, headers }));
}

/** Casts a fan's vote through the API: `POST /polls/1.0.8/user/poll/{id}/vote`. */
export function voteRequest(
  sandbox: Sandbox,
  token: string,
  pollId: string,
  answerId: string,
): Promise<Response> {
  return apiRequest(sandbox, `/polls/1.0.8/user/poll/${pollId}/vote`, token, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ answerId }),
  });
}

/**
 * A fetch answered by the sandbox in-process: requests to `apiOrigin` go to the resource API, all others to the
 * OAuth server. Like a real fetch it rejects once the request's signal aborts (`app.request` alone would not).
 */
export function inProcessFetch(
  sandbox: Sandbox,
  apiOrigin: string,
): (input: string | URL | Request, init?: RequestInit) => Promise<Response> {
  return (input, init) => {
    const request = new Request(input, init);
    const app = new URL(request.url).origin === apiOrigin ? sandbox.api : sandbox.auth;
    const { signal } = request;
    if (signal.aborted) return Promise.reject(signal.reason as Error);
    return new Promise<Response>((resolve, reject) => {
      const onAbort = () => {
        reject(signal.reason as Error);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      Promise.resolve(app.request(request))
        .then(resolve, reject)
        .finally(() => {
          signal.removeEventListener('abort', onAbort);
        });
    });
  };
}
