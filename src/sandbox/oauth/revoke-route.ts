import type { Hono } from 'hono';
import type { SandboxState } from '../sandbox-state.ts';
import { authenticateClient } from './client-authentication.ts';
import { readFormParams } from './form-params.ts';
import { noStoreHeaders, oauthErrorResponse, revokeErrors, tokenErrors } from './token-errors.ts';

/**
 * `POST /oauth2/revoke` as WSO2 answers it: 200 with an empty body whatever the token (unknown, expired, another
 * client's), 400 without a `token`, 401 when the client does not authenticate. Revoking either token of a pair
 * revokes both (the TokenStore does that).
 */
export function registerRevokeRoute(app: Hono, sandbox: SandboxState): void {
  app.post('/oauth2/revoke', async (c) => {
    const form = await readFormParams(c.req.raw);
    if (!form.ok) {
      const answer = form.reason === 'repeated' ? tokenErrors.repeatedParameters : revokeErrors.missingToken;
      return oauthErrorResponse(answer, c.req.url, 'error-first');
    }
    const token = form.params.get('token');
    if (!token) return oauthErrorResponse(revokeErrors.missingToken, c.req.url, 'error-first');
    const client = authenticateClient(sandbox.applications, c.req.header('authorization'), form.params);
    if (!client.ok) return oauthErrorResponse(revokeErrors.badClient, c.req.url, 'error-first');
    sandbox.tokens.revoke(client.application.clientId, token);
    return new Response(null, { status: 200, headers: noStoreHeaders() });
  });
}
