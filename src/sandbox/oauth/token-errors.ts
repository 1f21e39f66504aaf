import { oauthChoices } from './oauth-choices.ts';

/** One error answer of the token or revoke endpoint: status, OAuth `error` code and WSO2's exact description. */
export interface OAuthErrorAnswer {
  readonly status: 400 | 401;
  readonly error: string;
  readonly description: string;
}

/** WSO2 key manager's token endpoint errors, word for word from platform-notes.md (and OLTU for the request checks). */
export const tokenErrors = {
  unknownClient: (clientId: string): OAuthErrorAnswer => ({
    status: 401,
    error: 'invalid_client',
    description: `A valid OAuth client could not be found for client_id: ${clientId}`,
  }),
  wrongSecret: { status: 401, error: 'invalid_client', description: 'Client credentials are invalid.' },
  noClientAuthentication: {
    status: 401,
    error: 'invalid_client',
    description: 'Unsupported Client Authentication Method!',
  },
  bothClientAuthentications: oauthChoices.bothClientAuthentications,
  unknownCode: {
    status: 400,
    error: 'invalid_grant',
    description: 'Invalid authorization code received from token request',
  },
  reusedCode: {
    status: 400,
    error: 'invalid_grant',
    description: 'Inactive authorization code received from token request',
  },
  expiredCode: {
    status: 400,
    error: 'invalid_grant',
    description: 'Expired or Revoked authorization code received from token request',
  },
  callbackMismatch: { status: 400, error: 'invalid_grant', description: 'Callback url mismatch' },
  pkceFailed: { status: 400, error: 'invalid_grant', description: 'PKCE validation failed' },
  badRefreshToken: {
    status: 400,
    error: 'invalid_grant',
    description: 'Persisted access token data not found',
  },
  unsupportedGrantType: {
    status: 400,
    error: 'invalid_request',
    description: 'Unsupported grant_type value',
  },
  missingGrantType: {
    status: 400,
    error: 'invalid_request',
    description: 'Missing grant_type parameter value',
  },
  missingParameters: (names: readonly string[]): OAuthErrorAnswer => ({
    status: 400,
    error: 'invalid_request',
    description: `Missing parameters: ${names.join(' ')}`,
  }),
  badContentType: {
    status: 400,
    error: 'invalid_request',
    description: 'Bad request content type. Expecting: application/x-www-form-urlencoded',
  },
  repeatedParameters: {
    status: 400,
    error: 'invalid_request',
    description: 'Invalid request with repeated parameters.',
  },
} as const satisfies Record<string, OAuthErrorAnswer | ((...args: never[]) => OAuthErrorAnswer)>;

/** The revocation endpoint's two errors (its body lists `error` first, as the notes show). */
export const revokeErrors = {
  missingToken: { status: 400, error: 'invalid_request', description: 'Invalid revocation request' },
  badClient: { status: 401, error: 'invalid_client', description: 'Client Authentication failed.' },
} as const satisfies Record<string, OAuthErrorAnswer>;

/** Headers of every token and revoke answer, success or failure. */
export function noStoreHeaders(): Headers {
  return new Headers({ 'Cache-Control': 'no-store', Pragma: 'no-cache' });
}

/**
 * A token-endpoint error as WSO2 shapes it: `{"error_description","error"}` (or `error` first for revoke), no-store
 * headers, and on 401 `WWW-Authenticate: Basic realm=<host>`.
 */
export function oauthErrorResponse(
  answer: OAuthErrorAnswer,
  requestUrl: string,
  keyOrder: 'description-first' | 'error-first' = 'description-first',
): Response {
  const headers = noStoreHeaders();
  headers.set('Content-Type', 'application/json');
  if (answer.status === 401) headers.set('WWW-Authenticate', `Basic realm=${new URL(requestUrl).hostname}`);
  const body =
    keyOrder === 'description-first'
      ? { error_description: answer.description, error: answer.error }
      : { error: answer.error, error_description: answer.description };
  return new Response(JSON.stringify(body), { status: answer.status, headers });
}
