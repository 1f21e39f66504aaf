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
