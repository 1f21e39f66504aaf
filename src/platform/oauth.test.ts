import { describe, expect, it } from 'vitest';
import {
  authorizationServer,
  createAuthorizationRequest,
  OAuthClient,
  validateCallback,
  type OAuthClientSettings,
} from './oauth.ts';
import { createFakeFetch, jsonResponse } from './testing/fake-fetch.ts';
import { platformErrorOf } from '../../test/support/platform-error.ts';
import { hangingFetch } from '../../test/support/hanging-fetch.ts';

const authUrl = 'https://auth.example';
const secret = 'se-cret~1';
const now = 1_700_000_000_000;

function client(
  fetch: OAuthClientSettings['fetch'],
  settings: Partial<OAuthClientSettings> = {},
): OAuthClient {
  return new OAuthClient({
    authUrl,
    clientId: 'my-app',
    clientSecret: secret,
    fetch,
    now: () => now,
    ...settings,
  });
}

describe('authorizationServer', () => {
  it('builds the three endpoints under {auth_url}/oauth2', () => {
    expect(authorizationServer('https://partner.socios.com/')).toMatchObject({
      issuer: 'https://partner.socios.com',
      token_endpoint: 'https://partner.socios.com/oauth2/token',
      authorization_endpoint: 'https://partner.socios.com/oauth2/authorize',
      revocation_endpoint: 'https://partner.socios.com/oauth2/revoke',
    });
  });
});

describe('createAuthorizationRequest', () => {
  it('carries the spec’s parameters, state and PKCE S256', async () => {
    const request = await createAuthorizationRequest({
      authUrl,
      clientId: 'my-app',
      partnerTag: 'partner',
      redirectUri: 'https://proxy.example/auth/callback',
      codeVerifier: 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk',
      state: 's1',
    });
    expect(request.url.origin + request.url.pathname).toBe('https://auth.example/oauth2/authorize');
    expect(Object.fromEntries(request.url.searchParams)).toEqual({
      response_type: 'code',
      client_id: 'my-app',
      partner_tag: 'partner',
      redirect_uri: 'https://proxy.example/auth/callback',
      state: 's1',
      // RFC 7636 appendix B's example pair.
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    });
  });

  it('adds the tracking parameters only when set, and fresh state and verifier each time', async () => {
    const input = {
      authUrl,
      clientId: 'my-app',
      partnerTag: 'partner',
      redirectUri: 'https://proxy.example/cb',
      tracking: { referrer: 'club-site', campaign: '', param1: 'website', param3: 'iframe' },
    };
    const first = await createAuthorizationRequest(input);
    const second = await createAuthorizationRequest(input);
    expect(first.url.searchParams.get('referrer')).toBe('club-site');
    expect(first.url.searchParams.get('param1')).toBe('website');
    expect(first.url.searchParams.get('param3')).toBe('iframe');
    expect(first.url.searchParams.has('campaign')).toBe(false);
    expect(first.url.searchParams.has('param2')).toBe(false);
    expect(first.state).not.toBe(second.state);
    expect(first.codeVerifier).not.toBe(second.codeVerifier);
    expect(first.codeVerifier.length).toBeGreaterThanOrEqual(43);
  });

  it('refuses a missing redirect', async () => {
    const error = await platformErrorOf(
      createAuthorizationRequest({ authUrl, clientId: 'a', partnerTag: 'p', redirectUri: '' }),
    );
    expect(error.code).toBe('invalid_input');
  });
});

describe('validateCallback', () => {
  const settings = { authUrl, clientId: 'my-app' };
  const validate = (query: string, state = 's1') =>
    Promise.resolve().then(() =>
      validateCallback(settings, new URL(`https://proxy.example/cb?${query}`), state),
    );

  it('returns the code when the state matches', async () => {
    expect(await validate('code=abc&state=s1')).toEqual({ code: 'abc' });
  });

  it('maps the fan’s refusal to access_denied', async () => {
    const error = await platformErrorOf(
      validate('error=access_denied&error_description=User+denied+the+consent&state=s1'),
    );
    expect(error.code).toBe('access_denied');
    expect(error.oauthErrorDescription).toBe('User denied the consent');
  });

  it('maps another error to oauth_error', async () => {
    expect((await platformErrorOf(validate('error=server_error&state=s1'))).code).toBe('oauth_error');
  });

  it('refuses a wrong or missing state, and a missing code', async () => {
    expect((await platformErrorOf(validate('code=abc&state=other'))).code).toBe('invalid_input');
    expect((await platformErrorOf(validate('code=abc'))).code).toBe('invalid_input');
    expect((await platformErrorOf(validate('state=s1'))).code).toBe('invalid_input');
  });
});

describe('OAuthClient', () => {
  it('client credentials: raw Basic by default, as the spec builds it', async () => {
    const fake = createFakeFetch();
    fake.answer(jsonResponse({ access_token: 'app-token', token_type: 'bearer' }));
    const tokens = await client(fake.fetch).clientCredentials();
    expect(tokens).toEqual({ accessToken: 'app-token' });
    const request = fake.requests[0]!;
    expect(request.url.href).toBe('https://auth.example/oauth2/token');
    expect(request.headers.get('authorization')).toBe(`Basic ${btoa(`my-app:${secret}`)}`);
    expect(new URLSearchParams(request.body).get('grant_type')).toBe('client_credentials');
    expect(request.headers.get('content-type')).toContain('application/x-www-form-urlencoded');
  });

  it('client credentials: RFC 6749 form-encoded Basic as a setting', async () => {
    const fake = createFakeFetch();
    fake.answer(jsonResponse({ access_token: 't', token_type: 'Bearer', expires_in: 3600 }));
    const tokens = await client(fake.fetch, { basicEncoding: 'rfc6749' }).clientCredentials();
    expect(fake.requests[0]!.headers.get('authorization')).toBe(`Basic ${btoa('my%2Dapp:se%2Dcret%7E1')}`);
    expect(tokens.expiresAt).toBe(now + 3_600_000);
  });

  it('code exchange: secret in the form by default, with the verifier and redirect', async () => {
    const fake = createFakeFetch();
    fake.answer(
      jsonResponse({ access_token: 'a', refresh_token: 'r', token_type: 'bearer', expires_in: 7200 }),
    );
    const tokens = await client(fake.fetch).exchangeCode({
      code: 'c1',
      codeVerifier: 'v'.repeat(43),
      redirectUri: 'https://proxy.example/cb',
    });
    expect(tokens).toEqual({
      accessToken: 'a',
      refreshToken: 'r',
      expiresIn: 7200,
      expiresAt: now + 7_200_000,
    });
    const form = new URLSearchParams(fake.requests[0]!.body);
    expect(Object.fromEntries(form)).toEqual({
      grant_type: 'authorization_code',
      code: 'c1',
      code_verifier: 'v'.repeat(43),
      redirect_uri: 'https://proxy.example/cb',
      client_id: 'my-app',
      client_secret: secret,
    });
    expect(fake.requests[0]!.headers.get('authorization')).toBeNull();
  });

  it('code exchange: Basic as a setting, no secret in the form', async () => {
    const fake = createFakeFetch();
    fake.answer(jsonResponse({ access_token: 'a', token_type: 'bearer' }));
    await client(fake.fetch, { codeExchangeAuth: 'basic' }).exchangeCode({
      code: 'c1',
      codeVerifier: 'v'.repeat(43),
      redirectUri: 'https://proxy.example/cb',
    });
    expect(new URLSearchParams(fake.requests[0]!.body).has('client_secret')).toBe(false);
    expect(fake.requests[0]!.headers.get('authorization')).toMatch(/^Basic /);
  });

  it('refresh: a refused refresh token is invalid_token (signed out)', async () => {
    const fake = createFakeFetch();
    fake.answer(
      jsonResponse(
        { error: 'invalid_grant', error_description: 'Persisted access token data not found' },
        400,
      ),
    );
    const error = await platformErrorOf(client(fake.fetch).refresh('old-refresh'));
    expect(error.code).toBe('invalid_token');
    expect(error.oauthError).toBe('invalid_grant');
    expect(new URLSearchParams(fake.requests[0]!.body).get('refresh_token')).toBe('old-refresh');
    expect(error.message).not.toContain('old-refresh');
  });

  it('a 401 with a Basic challenge is an oauth_error carrying error and description', async () => {
    const fake = createFakeFetch();
    fake.answer(
      jsonResponse({ error: 'invalid_client', error_description: 'Client credentials are invalid.' }, 401, {
        'www-authenticate': 'Basic realm=auth.example',
      }),
    );
    const error = await platformErrorOf(client(fake.fetch).clientCredentials());
    expect(error).toMatchObject({
      code: 'oauth_error',
      status: 401,
      oauthError: 'invalid_client',
      oauthErrorDescription: 'Client credentials are invalid.',
    });
    expect(error.message).not.toContain(secret);
  });

  it('an invalid_grant on code exchange stays an oauth_error', async () => {
    const fake = createFakeFetch();
    fake.answer(jsonResponse({ error: 'invalid_grant', error_description: 'PKCE validation failed' }, 400));
    const error = await platformErrorOf(
      client(fake.fetch).exchangeCode({
        code: 'c',
        codeVerifier: 'v'.repeat(43),
        redirectUri: 'https://x/cb',
      }),
    );
    expect(error).toMatchObject({ code: 'oauth_error', oauthError: 'invalid_grant' });
  });

  it.each([
    ['a 5xx', () => new Response('oops', { status: 502 }), 'platform_error'],
    ['a 429', () => jsonResponse({}, 429, { 'retry-after': '30' }), 'throttled'],
    ['a 200 without a token', () => jsonResponse({ token_type: 'bearer' }), 'malformed_response'],
    [
      'a 200 with another token type',
      () => jsonResponse({ access_token: 'a', token_type: 'mac' }),
      'malformed_response',
    ],
    ['a 200 that is not JSON', () => new Response('<html>'), 'malformed_response'],
    ['a 201', () => jsonResponse({ access_token: 'a', token_type: 'bearer' }, 201), 'platform_error'],
  ])('maps %s', async (_name, answer, code) => {
    const fake = createFakeFetch(() => answer());
    const error = await platformErrorOf(client(fake.fetch).clientCredentials());
    expect(error.code).toBe(code);
    if (code === 'throttled') expect(error.retryAt?.getTime()).toBe(now + 30_000);
  });

  it('maps a failed connection to network and a slow server to timeout', async () => {
    const down = createFakeFetch(new TypeError('fetch failed'));
    expect((await platformErrorOf(client(down.fetch).clientCredentials())).code).toBe('network');
    expect((await platformErrorOf(client(hangingFetch, { timeoutMs: 20 }).clientCredentials())).code).toBe(
      'timeout',
    );
  });

  it('refuses plain http unless allowed', async () => {
    const fake = createFakeFetch(() => jsonResponse({ access_token: 'a', token_type: 'bearer' }));
    const insecure = { authUrl: 'http://127.0.0.1:9' };
    expect((await platformErrorOf(client(fake.fetch, insecure).clientCredentials())).code).toBe(
      'invalid_input',
    );
    expect(fake.requests).toHaveLength(0);
    await expect(
      client(fake.fetch, { ...insecure, allowInsecureRequests: true }).clientCredentials(),
    ).resolves.toEqual({ accessToken: 'a' });
  });

  it('revoke: Basic and token=, 200 is done, an error body is an oauth_error', async () => {
    const fake = createFakeFetch();
    fake.answer(new Response('', { status: 200 }));
    await client(fake.fetch).revoke('tok');
    expect(fake.requests[0]!.url.pathname).toBe('/oauth2/revoke');
    expect(new URLSearchParams(fake.requests[0]!.body).get('token')).toBe('tok');
    expect(fake.requests[0]!.headers.get('authorization')).toMatch(/^Basic /);
    fake.answer(
      jsonResponse({ error: 'invalid_client', error_description: 'Client Authentication failed.' }, 401),
    );
    expect((await platformErrorOf(client(fake.fetch).revoke('tok'))).code).toBe('oauth_error');
  });
});
