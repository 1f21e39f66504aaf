// The sandbox's OAuth server over a real socket: oauth4webapi with the real fetch, as a partner's server uses it.
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoApplication, demoRedirectUris } from '../../src/local-defaults.ts';
import { answerConsent } from '../../src/sandbox/oauth/headless-consent.ts';
import { recordedAuthorizations } from '../../src/sandbox/oauth/oauth-state.ts';
import { serveSandbox, type RunningSandbox } from '../../src/sandbox/serve.ts';
import {
  demoClient as client,
  demoClientAuth as clientAuth,
  refreshTokens,
  sandboxAuthorizationServer,
  startAuthorization,
} from '../support/sandbox-oauth.ts';

let running: RunningSandbox;
let authorizationServer: oauth.AuthorizationServer;
// eslint-disable-next-line @typescript-eslint/no-deprecated -- plain http: the sandbox in tests
const insecure = { [oauth.allowInsecureRequests]: true };
const redirectUri = demoRedirectUris()[0]!;

beforeAll(async () => {
  running = await serveSandbox({ apiPort: 0, authPort: 0 });
  authorizationServer = sandboxAuthorizationServer(running.authUrl);
});
afterAll(async () => {
  await running.close();
});

describe('over a real socket', () => {
  it('serves the two origins on different ports', () => {
    expect(new URL(running.authUrl).port).not.toBe(new URL(running.apiUrl).port);
  });

  it('issues a client-credentials token', async () => {
    const response = await oauth.clientCredentialsGrantRequest(
      authorizationServer,
      client,
      clientAuth,
      {},
      insecure,
    );
    const tokens = await oauth.processClientCredentialsResponse(authorizationServer, client, response);
    expect(running.sandbox.state.tokens.lookupAccessToken(tokens.access_token).ok).toBe(true);
  });

  it('runs the whole user flow: authorize with tracking, consent, exchange, refresh, revoke', async () => {
    const { url, state, verifier } = await startAuthorization(authorizationServer, redirectUri, {
      referrer: 'socket-test',
      param3: 'API',
    });
    const outcome = await answerConsent(fetch, url.toString(), {
      decision: 'allow',
      username: 'sam',
      password: 'fan-polls',
    });
    expect(outcome.kind).toBe('redirect');
    const callback = new URL((outcome as { location: string }).location);
    const parameters = oauth.validateAuthResponse(authorizationServer, client, callback, state);
    const tokens = await oauth.processAuthorizationCodeResponse(
      authorizationServer,
      client,
      await oauth.authorizationCodeGrantRequest(
        authorizationServer,
        client,
        clientAuth,
        parameters,
        redirectUri,
        verifier,
        insecure,
      ),
    );
    expect(recordedAuthorizations(running.sandbox.state).at(-1)?.tracking).toEqual({
      referrer: 'socket-test',
      param3: 'API',
    });

    const refreshed = await refreshTokens(authorizationServer, tokens.refresh_token!, insecure);
    expect(running.sandbox.state.tokens.lookupAccessToken(tokens.access_token).ok).toBe(false);

    const revoked = await oauth.revocationRequest(
      authorizationServer,
      client,
      clientAuth,
      refreshed.access_token,
      insecure,
    );
    expect(revoked.status).toBe(200);
    expect(await revoked.text()).toBe('');
    expect(running.sandbox.state.tokens.lookupAccessToken(refreshed.access_token)).toEqual({
      ok: false,
      reason: 'revoked',
    });

    // The code, presented again over the wire, is inactive.
    const reuse = await fetch(authorizationServer.token_endpoint!, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: callback.searchParams.get('code')!,
        redirect_uri: redirectUri,
        code_verifier: verifier,
        client_id: demoApplication.clientId,
        client_secret: demoApplication.clientSecret,
      }),
    });
    expect(reuse.status).toBe(400);
    expect(await reuse.json()).toEqual({
      error_description: 'Inactive authorization code received from token request',
      error: 'invalid_grant',
    });
  });

  it('answers 401 with the Basic realm of its host and no CORS headers', async () => {
    const response = await fetch(authorizationServer.token_endpoint!, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        Authorization: `Basic ${btoa(`${demoApplication.clientId}:wrong`)}`,
        Origin: 'https://partner.example',
      },
      body: 'grant_type=client_credentials',
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Basic realm=127.0.0.1');
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });
});
