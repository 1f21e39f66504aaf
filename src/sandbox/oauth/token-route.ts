import type { Hono } from 'hono';
import type { RegisteredApplication } from '../applications.ts';
import type { SandboxState } from '../sandbox-state.ts';
import { authenticateClient, type ClientAuthentication } from './client-authentication.ts';
import { readFormParams } from './form-params.ts';
import { oauthChoices } from './oauth-choices.ts';
import { oauthStateOf, type OAuthServerState } from './oauth-state.ts';
import { verifyPkce } from './pkce.ts';
import { noStoreHeaders, oauthErrorResponse, tokenErrors, type OAuthErrorAnswer } from './token-errors.ts';

const supportedGrantTypes = ['client_credentials', 'authorization_code', 'refresh_token'] as const;
type GrantType = (typeof supportedGrantTypes)[number];

/** Parameters each grant must carry before the client is even looked at (OLTU's validators, as WSO2 runs them). */
const requiredParameters: Record<GrantType, readonly string[]> = {
  client_credentials: [],
  authorization_code: ['code'],
  refresh_token: ['refresh_token'],
};

/** A successful token answer, in WSO2's key order. */
interface TokenBody {
  readonly access_token: string;
  readonly refresh_token?: string;
  readonly scope: string;
  readonly token_type: string;
  readonly expires_in: number;
}

/**
 * `POST /oauth2/token` as the WSO2 key manager answers it. Checks run in WSO2's order: body type and repeated
 * parameters, grant type, the grant's required parameters, client authentication, then the grant itself.
 */
export function registerTokenRoute(app: Hono, sandbox: SandboxState): void {
  const server = oauthStateOf(sandbox);

  app.post('/oauth2/token', async (c) => {
    const fail = (answer: OAuthErrorAnswer) => oauthErrorResponse(answer, c.req.url);
    const form = await readFormParams(c.req.raw);
    if (!form.ok)
      return fail(form.reason === 'repeated' ? tokenErrors.repeatedParameters : tokenErrors.badContentType);
    const params = form.params;

    const grantType = params.get('grant_type');
    if (!grantType) return fail(tokenErrors.missingGrantType);
    if (!isSupportedGrantType(grantType)) return fail(tokenErrors.unsupportedGrantType);
    const missing = requiredParameters[grantType].filter((name) => !params.get(name));
    if (missing.length > 0) return fail(tokenErrors.missingParameters(missing));

    const client = authenticateClient(sandbox.applications, c.req.header('authorization'), params);
    if (!client.ok) return fail(clientFailure(client));

    const outcome = runGrant(grantType, client.application, params, sandbox, server);
    if ('status' in outcome) return fail(outcome);
    const headers = noStoreHeaders();
    headers.set('Content-Type', 'application/json');
    return new Response(JSON.stringify(outcome), { status: 200, headers });
  });
}

function runGrant(
  grantType: GrantType,
  application: RegisteredApplication,
  params: ReadonlyMap<string, string>,
  sandbox: SandboxState,
  server: OAuthServerState,
): TokenBody | OAuthErrorAnswer {
  switch (grantType) {
    case 'client_credentials': {
      const issued = sandbox.tokens.issueApplicationToken(application.clientId);
      return tokenBody(issued.accessToken, undefined, issued.expiresIn);
    }
    case 'authorization_code':
      return exchangeCode(application, params, sandbox, server);
    case 'refresh_token': {
      const issued = sandbox.tokens.refresh(application.clientId, params.get('refresh_token') ?? '');
      if (!issued) return tokenErrors.badRefreshToken;
      return tokenBody(issued.accessToken, issued.refreshToken, issued.expiresIn);
    }
  }
}

/** The authorization-code grant, with WSO2's checks in WSO2's order. */
function exchangeCode(
  application: RegisteredApplication,
  params: ReadonlyMap<string, string>,
  sandbox: SandboxState,
  server: OAuthServerState,
): TokenBody | OAuthErrorAnswer {
  const code = server.findCode(params.get('code') ?? '');
  // A code issued to another client is looked up under that client by WSO2, so it is unknown here.
  if (!code || code.clientId !== application.clientId) return tokenErrors.unknownCode;
  if (code.used) {
    sandbox.tokens.revokeIssuedFromCode(code.codeId);
    return tokenErrors.reusedCode;
  }
  if (sandbox.clock.now() >= code.issuedAt + sandbox.lifetimes.authorizationCodeSeconds * 1000) {
    return tokenErrors.expiredCode;
  }
  if (params.get('redirect_uri') !== code.redirectUri) return tokenErrors.callbackMismatch;
  const verifier = params.get('code_verifier');
  if (code.codeChallenge !== undefined && code.codeChallengeMethod !== undefined) {
    if (verifier === undefined || !verifyPkce(code.codeChallenge, code.codeChallengeMethod, verifier)) {
      return tokenErrors.pkceFailed;
    }
  } else if (verifier !== undefined) {
    // A verifier for a code that had no challenge is a downgrade attempt (RFC 9700 §2.1.1).
    return tokenErrors.pkceFailed;
  }
  code.used = true;
  const issued = sandbox.tokens.issueUserTokens(application.clientId, code.userId, code.codeId);
  return tokenBody(issued.accessToken, issued.refreshToken, issued.expiresIn);
}

function tokenBody(accessToken: string, refreshToken: string | undefined, expiresIn: number): TokenBody {
  return {
    access_token: accessToken,
    ...(refreshToken === undefined ? {} : { refresh_token: refreshToken }),
    scope: oauthChoices.scope,
    token_type: oauthChoices.tokenType,
    expires_in: expiresIn,
  };
}

function clientFailure(client: Exclude<ClientAuthentication, { ok: true }>): OAuthErrorAnswer {
  switch (client.failure) {
    case 'none':
      return tokenErrors.noClientAuthentication;
    case 'both':
      return tokenErrors.bothClientAuthentications;
    case 'unknown-client':
      return tokenErrors.unknownClient(client.clientId);
    case 'wrong-secret':
      return tokenErrors.wrongSecret;
  }
}

function isSupportedGrantType(value: string): value is GrantType {
  return (supportedGrantTypes as readonly string[]).includes(value);
}
