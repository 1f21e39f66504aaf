// The authorization-code flow of the sandbox's OAuth server, in-process: authorize, the consent form, the code
// exchange and refresh, driven by oauth4webapi with the fan's part played by answerConsent.
import * as oauth from 'oauth4webapi';
import { beforeEach, describe, expect, it } from 'vitest';
import { demoApplication, demoRedirectUris, extensionRedirectUri } from '../../src/local-defaults.ts';
import { fans } from '../../src/sandbox/data/fans.ts';
import { answerConsent, type ConsentAnswer } from '../../src/sandbox/oauth/headless-consent.ts';
import { recordedAuthorizations } from '../../src/sandbox/oauth/oauth-state.ts';
import { createSandbox, type Sandbox } from '../../src/sandbox/sandbox.ts';
import {
  demoClient as client,
  demoAuthorizeUrl,
  demoClientAuth as clientAuth,
  inProcessOAuth,
  refreshTokens,
  sandboxAuthorizationServer,
  startAuthorization,
  type StartedAuthorization,
} from '../support/sandbox-oauth.ts';

const authUrl = 'http://127.0.0.1:4011';
const authorizationServer = sandboxAuthorizationServer(authUrl);
const redirectUri = demoRedirectUris()[0]!;
const alex = fans.find((fan) => fan.username === 'alex')!;

let sandbox: Sandbox;
beforeEach(() => {
  sandbox = createSandbox();
});

const inProcessFetch = (url: string, init?: RequestInit) => Promise.resolve(sandbox.auth.request(url, init));

async function consent(
  started: StartedAuthorization,
  answer: ConsentAnswer = { decision: 'allow' },
): Promise<URL> {
  const outcome = await answerConsent(inProcessFetch, started.url.toString(), answer);
  if (outcome.kind !== 'redirect') throw new Error(`expected a redirect, got a ${outcome.status} page`);
  return new URL(outcome.location);
}

async function exchange(
  started: StartedAuthorization,
  callback: URL,
  verifier = started.verifier,
  uri = redirectUri,
) {
  const parameters = oauth.validateAuthResponse(authorizationServer, client, callback, started.state);
  const response = await oauth.authorizationCodeGrantRequest(
    authorizationServer,
    client,
    clientAuth,
    parameters,
    uri,
    verifier,
    inProcessOAuth(sandbox),
  );
  return oauth.processAuthorizationCodeResponse(authorizationServer, client, response);
}

async function signIn() {
  const started = await startAuthorization(authorizationServer, redirectUri);
  const callback = await consent(started);
  return { started, callback, tokens: await exchange(started, callback) };
}

const refresh = (refreshToken: string, clientOverride = client, authOverride = clientAuth) =>
  refreshTokens(authorizationServer, refreshToken, inProcessOAuth(sandbox), clientOverride, authOverride);

async function tokenErrorOf(
  promise: Promise<unknown>,
): Promise<{ error: string; description?: string; status: number }> {
  const failure = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(failure).toBeInstanceOf(oauth.ResponseBodyError);
  const error = failure as oauth.ResponseBodyError;
  return { error: error.error, description: error.error_description, status: error.status };
}

describe('authorization code with PKCE S256', () => {
  it('signs a fan in: code and state on the registered redirect, WSO2-shaped user tokens', async () => {
    const started = await startAuthorization(authorizationServer, redirectUri);
    const callback = await consent(started);
    expect(`${callback.origin}${callback.pathname}`).toBe(redirectUri);
    expect(callback.searchParams.get('state')).toBe(started.state);
    const response = await oauth.authorizationCodeGrantRequest(
      authorizationServer,
      client,
      clientAuth,
      oauth.validateAuthResponse(authorizationServer, client, callback, started.state),
      redirectUri,
      started.verifier,
      inProcessOAuth(sandbox),
    );
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('pragma')).toBe('no-cache');
    const body = (await response.clone().json()) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(['access_token', 'refresh_token', 'scope', 'token_type', 'expires_in']);
    expect(body).toMatchObject({ scope: 'default', token_type: 'Bearer', expires_in: 3600 });
    const tokens = await oauth.processAuthorizationCodeResponse(authorizationServer, client, response);
    expect(sandbox.state.tokens.lookupAccessToken(tokens.access_token)).toEqual({
      ok: true,
      grant: { kind: 'user', clientId: demoApplication.clientId, userId: alex.userId },
    });
  });

  it('signs in the fan who typed their name, and takes the access lifetime from the configuration', async () => {
    sandbox = createSandbox({ lifetimes: { accessTokenSeconds: 7200 } });
    const started = await startAuthorization(authorizationServer, redirectUri);
    const callback = await consent(started, { decision: 'allow', username: 'kim', password: 'fan-polls' });
    const tokens = await exchange(started, callback);
    expect(tokens.expires_in).toBe(7200);
    const lookup = sandbox.state.tokens.lookupAccessToken(tokens.access_token);
    expect(lookup.ok && lookup.grant.userId).toBe(fans.find((fan) => fan.username === 'kim')!.userId);
  });

  it('accepts the secret in the form (the platform documentation’s way) and a flow without state or PKCE', async () => {
    const url = demoAuthorizeUrl(authorizationServer, redirectUri);
    const outcome = await answerConsent(inProcessFetch, url.toString(), { decision: 'allow' });
    expect(outcome.kind).toBe('redirect');
    const callback = new URL((outcome as { location: string }).location);
    expect(callback.searchParams.has('state')).toBe(false);
    const response = await sandbox.auth.request(`${authUrl}/oauth2/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: callback.searchParams.get('code')!,
        client_id: demoApplication.clientId,
        client_secret: demoApplication.clientSecret,
        redirect_uri: redirectUri,
      }).toString(),
    });
    expect(response.status).toBe(200);
  });

  it('wrong PKCE verifier: 400 invalid_grant "PKCE validation failed"', async () => {
    const started = await startAuthorization(authorizationServer, redirectUri);
    const callback = await consent(started);
    expect(await tokenErrorOf(exchange(started, callback, oauth.generateRandomCodeVerifier()))).toEqual({
      status: 400,
      error: 'invalid_grant',
      description: 'PKCE validation failed',
    });
  });

  it('a verifier for a code issued without a challenge fails too (no PKCE downgrade)', async () => {
    const started = await startAuthorization(authorizationServer, redirectUri, {
      code_challenge: '',
      code_challenge_method: '',
    });
    const url = new URL(started.url);
    url.searchParams.delete('code_challenge');
    url.searchParams.delete('code_challenge_method');
    const callback = await consent({ ...started, url });
    expect((await tokenErrorOf(exchange(started, callback))).description).toBe('PKCE validation failed');
  });

  it('supports the plain method too', async () => {
    const verifier = oauth.generateRandomCodeVerifier();
    const started = await startAuthorization(authorizationServer, redirectUri, {
      code_challenge: verifier,
      code_challenge_method: 'plain',
    });
    const callback = await consent(started);
    expect((await exchange({ ...started, verifier }, callback)).access_token).toBeTruthy();
  });

  it('redirect_uri differing from the authorize one: 400 invalid_grant "Callback url mismatch"', async () => {
    const started = await startAuthorization(authorizationServer, redirectUri);
    const callback = await consent(started);
    expect(await tokenErrorOf(exchange(started, callback, started.verifier, extensionRedirectUri))).toEqual({
      status: 400,
      error: 'invalid_grant',
      description: 'Callback url mismatch',
    });
  });

  it('unknown code, and a code of another client: "Invalid authorization code received from token request"', async () => {
    const started = await startAuthorization(authorizationServer, redirectUri);
    const callback = await consent(started);
    const forged = new URL(callback);
    forged.searchParams.set('code', 'not-a-code');
    expect(await tokenErrorOf(exchange(started, forged))).toEqual({
      status: 400,
      error: 'invalid_grant',
      description: 'Invalid authorization code received from token request',
    });

    sandbox.state.applications.register({
      clientId: 'other',
      clientSecret: 'other-secret',
      partnerTag: 'other',
      name: 'Other',
      redirectUris: [redirectUri],
      subscribed: true,
    });
    const response = await oauth.authorizationCodeGrantRequest(
      authorizationServer,
      { client_id: 'other' },
      oauth.ClientSecretBasic('other-secret'),
      oauth.validateAuthResponse(authorizationServer, client, callback, started.state),
      redirectUri,
      started.verifier,
      inProcessOAuth(sandbox),
    );
    expect(
      (await tokenErrorOf(oauth.processAuthorizationCodeResponse(authorizationServer, client, response)))
        .description,
    ).toBe('Invalid authorization code received from token request');
    // The rightful client can still use it.
    expect((await exchange(started, callback)).access_token).toBeTruthy();
  });

  it('expired code (the sandbox clock moves past its lifetime): "Expired or Revoked authorization code…"', async () => {
    sandbox.state.clock.freeze();
    const started = await startAuthorization(authorizationServer, redirectUri);
    const callback = await consent(started);
    sandbox.state.clock.advance(sandbox.state.lifetimes.authorizationCodeSeconds * 1000);
    expect(await tokenErrorOf(exchange(started, callback))).toEqual({
      status: 400,
      error: 'invalid_grant',
      description: 'Expired or Revoked authorization code received from token request',
    });
  });

  it('a code is usable until just before its configured lifetime ends', async () => {
    sandbox = createSandbox({ lifetimes: { authorizationCodeSeconds: 30 } });
    sandbox.state.clock.freeze();
    const started = await startAuthorization(authorizationServer, redirectUri);
    const callback = await consent(started);
    sandbox.state.clock.advance(29_999);
    expect((await exchange(started, callback)).access_token).toBeTruthy();
  });

  it('re-used code: "Inactive authorization code…" and the tokens it issued (and their refreshes) are revoked', async () => {
    const { started, callback, tokens } = await signIn();
    const refreshed = await refresh(tokens.refresh_token!);
    const other = await signIn();
    expect(await tokenErrorOf(exchange(started, callback))).toEqual({
      status: 400,
      error: 'invalid_grant',
      description: 'Inactive authorization code received from token request',
    });
    expect(sandbox.state.tokens.lookupAccessToken(tokens.access_token)).toEqual({
      ok: false,
      reason: 'revoked',
    });
    expect(sandbox.state.tokens.lookupAccessToken(refreshed.access_token)).toEqual({
      ok: false,
      reason: 'revoked',
    });
    expect(sandbox.state.tokens.lookupAccessToken(other.tokens.access_token).ok).toBe(true);
    const refreshAfter = await oauth.refreshTokenGrantRequest(
      authorizationServer,
      client,
      clientAuth,
      refreshed.refresh_token!,
      inProcessOAuth(sandbox),
    );
    expect(
      (await tokenErrorOf(oauth.processRefreshTokenResponse(authorizationServer, client, refreshAfter)))
        .description,
    ).toBe('Persisted access token data not found');
  });
});

describe('refresh', () => {
  it('rotates: a new pair, the old refresh token and old access token stop working', async () => {
    const { tokens } = await signIn();
    const next = await refresh(tokens.refresh_token!);
    expect(next.refresh_token).toBeTruthy();
    expect(next.refresh_token).not.toBe(tokens.refresh_token);
    expect(next.scope).toBe('default');
    expect(sandbox.state.tokens.lookupAccessToken(next.access_token).ok).toBe(true);
    expect(sandbox.state.tokens.lookupAccessToken(tokens.access_token).ok).toBe(false);
    expect(await tokenErrorOf(refresh(tokens.refresh_token!))).toEqual({
      status: 400,
      error: 'invalid_grant',
      description: 'Persisted access token data not found',
    });
  });

  it('refuses an unknown refresh token, an expired one and another client’s', async () => {
    expect((await tokenErrorOf(refresh('nope'))).description).toBe('Persisted access token data not found');
    const { tokens } = await signIn();
    sandbox.state.applications.register({
      clientId: 'other',
      clientSecret: 'other-secret',
      partnerTag: 'other',
      name: 'Other',
      redirectUris: [],
      subscribed: true,
    });
    expect(
      (
        await tokenErrorOf(
          refresh(tokens.refresh_token!, { client_id: 'other' }, oauth.ClientSecretBasic('other-secret')),
        )
      ).description,
    ).toBe('Persisted access token data not found');
    sandbox.state.clock.advance(sandbox.state.lifetimes.refreshTokenSeconds * 1000 + 1000);
    expect((await tokenErrorOf(refresh(tokens.refresh_token!))).description).toBe(
      'Persisted access token data not found',
    );
  });

  it('revoking the refresh token kills the access token of its pair, and the reverse', async () => {
    const first = await signIn();
    await oauth.revocationRequest(
      authorizationServer,
      client,
      clientAuth,
      first.tokens.refresh_token!,
      inProcessOAuth(sandbox),
    );
    expect(sandbox.state.tokens.lookupAccessToken(first.tokens.access_token)).toEqual({
      ok: false,
      reason: 'revoked',
    });
    const second = await signIn();
    await oauth.revocationRequest(
      authorizationServer,
      client,
      clientAuth,
      second.tokens.access_token,
      inProcessOAuth(sandbox),
    );
    expect((await tokenErrorOf(refresh(second.tokens.refresh_token!))).description).toBe(
      'Persisted access token data not found',
    );
  });
});

describe('consent outcomes and tracking', () => {
  it('deny sends access_denied with WSO2’s description and the state back, and records it', async () => {
    const started = await startAuthorization(authorizationServer, redirectUri);
    const outcome = await answerConsent(inProcessFetch, started.url.toString(), { decision: 'deny' });
    expect(outcome.kind).toBe('redirect');
    const location = (outcome as { location: string }).location;
    expect(location).toBe(
      `${redirectUri}?error=access_denied&error_description=User+denied+the+consent&state=${started.state}`,
    );
    expect(() =>
      oauth.validateAuthResponse(authorizationServer, client, new URL(location), started.state),
    ).toThrow(oauth.AuthorizationResponseError);
    expect(recordedAuthorizations(sandbox.state).at(-1)?.outcome).toBe('denied');
  });

  it('records the tracking parameters of each authorization, with its outcome and fan', async () => {
    const started = await startAuthorization(authorizationServer, redirectUri, {
      referrer: 'club-site',
      campaign: '',
      param1: 'website',
      param2: 'match-page',
      param3: 'iframe',
    });
    await consent(started);
    const plain = await startAuthorization(authorizationServer, redirectUri);
    await answerConsent(inProcessFetch, plain.url.toString(), { decision: 'deny' });
    const records = recordedAuthorizations(sandbox.state);
    expect(records).toHaveLength(2);
    expect(records[0]).toMatchObject({
      clientId: demoApplication.clientId,
      partnerTag: demoApplication.partnerTag,
      redirectUri,
      outcome: 'allowed',
      userId: alex.userId,
      tracking: {
        referrer: 'club-site',
        campaign: '',
        param1: 'website',
        param2: 'match-page',
        param3: 'iframe',
      },
    });
    expect(records[1]).toMatchObject({ outcome: 'denied', tracking: {} });
    expect(records[1]?.userId).toBeUndefined();
  });
});
