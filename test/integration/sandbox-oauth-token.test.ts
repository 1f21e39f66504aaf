// The sandbox's token and revoke endpoints against platform-notes.md, in-process, driven by oauth4webapi and raw.
import * as oauth from 'oauth4webapi';
import { beforeEach, describe, expect, it } from 'vitest';
import { demoApplication } from '../../src/local-defaults.ts';
import { createSandbox, type Sandbox } from '../../src/sandbox/sandbox.ts';
import {
  demoClient as client,
  inProcessOAuth,
  sandboxAuthorizationServer,
} from '../support/sandbox-oauth.ts';

const authUrl = 'http://127.0.0.1:4011';
const authorizationServer = sandboxAuthorizationServer(authUrl);

let sandbox: Sandbox;
beforeEach(() => {
  sandbox = createSandbox();
});

/** The platform documentation's Basic header: `base64(id:secret)` with nothing encoded. */
function rawBasic(clientId: string, clientSecret: string): string {
  return `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`;
}

function postForm(path: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  return sandbox.auth.request(`${authUrl}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
  });
}

const demoBasic = rawBasic(demoApplication.clientId, demoApplication.clientSecret);

async function expectTokenError(response: Response, status: number, error: string, description: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get('cache-control')).toBe('no-store');
  expect(response.headers.get('pragma')).toBe('no-cache');
  expect(await response.text()).toBe(JSON.stringify({ error_description: description, error }));
  if (status === 401) expect(response.headers.get('www-authenticate')).toBe('Basic realm=127.0.0.1');
  else expect(response.headers.get('www-authenticate')).toBeNull();
}

describe('client credentials', () => {
  it('issues an application token with the raw Basic header, in WSO2 shape and no refresh token', async () => {
    const response = await postForm(
      '/oauth2/token',
      { grant_type: 'client_credentials' },
      { Authorization: demoBasic },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('pragma')).toBe('no-cache');
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    const body = (await response.json()) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(['access_token', 'scope', 'token_type', 'expires_in']);
    expect(body).toMatchObject({ scope: 'default', token_type: 'Bearer', expires_in: 3600 });
    const lookup = sandbox.state.tokens.lookupAccessToken(body.access_token as string);
    expect(lookup).toEqual({ ok: true, grant: { kind: 'application', clientId: demoApplication.clientId } });
  });

  it('issues a token through oauth4webapi, whose Basic header is form-urlencoded first (RFC 6749 §2.3.1)', async () => {
    const response = await oauth.clientCredentialsGrantRequest(
      authorizationServer,
      client,
      oauth.ClientSecretBasic(demoApplication.clientSecret),
      {},
      inProcessOAuth(sandbox),
    );
    const tokens = await oauth.processClientCredentialsResponse(authorizationServer, client, response);
    expect(tokens.token_type).toBe('bearer');
    expect(tokens.refresh_token).toBeUndefined();
    expect(sandbox.state.tokens.lookupAccessToken(tokens.access_token).ok).toBe(true);
  });

  it('takes the lifetime from the sandbox configuration, never a constant', async () => {
    sandbox = createSandbox({ lifetimes: { applicationTokenSeconds: 3300 } });
    const response = await postForm(
      '/oauth2/token',
      { grant_type: 'client_credentials' },
      { Authorization: demoBasic },
    );
    expect(((await response.json()) as { expires_in: number }).expires_in).toBe(3300);
  });

  it('accepts the credentials as form fields and a multipart body', async () => {
    const form = new FormData();
    form.set('grant_type', 'client_credentials');
    form.set('client_id', demoApplication.clientId);
    form.set('client_secret', demoApplication.clientSecret);
    const response = await sandbox.auth.request(`${authUrl}/oauth2/token`, { method: 'POST', body: form });
    expect(response.status).toBe(200);
  });

  it('accepts both Basic encodings of a secret with reserved characters, and a raw secret containing %', async () => {
    const secret = 'p%41ss+w:rd-é';
    sandbox = createSandbox({
      applications: [
        {
          clientId: 'odd-client',
          clientSecret: secret,
          partnerTag: 'odd',
          name: 'Odd',
          redirectUris: [],
          subscribed: true,
        },
      ],
    });
    const raw = await postForm(
      '/oauth2/token',
      { grant_type: 'client_credentials' },
      { Authorization: rawBasic('odd-client', secret) },
    );
    expect(raw.status).toBe(200);
    const encoded = await oauth.clientCredentialsGrantRequest(
      authorizationServer,
      { client_id: 'odd-client' },
      oauth.ClientSecretBasic(secret),
      {},
      inProcessOAuth(sandbox),
    );
    expect(encoded.status).toBe(200);
    // The raw header with a wrong secret must not pass through a lenient decoding.
    const wrong = await postForm(
      '/oauth2/token',
      { grant_type: 'client_credentials' },
      { Authorization: rawBasic('odd-client', 'pAss+w:rd-é') },
    );
    expect(wrong.status).toBe(401);
  });
});

describe('token endpoint errors (platform-notes.md, word for word)', () => {
  it('unknown client id: 401 invalid_client naming the client', async () => {
    await expectTokenError(
      await postForm(
        '/oauth2/token',
        { grant_type: 'client_credentials' },
        { Authorization: rawBasic('nobody', 'x') },
      ),
      401,
      'invalid_client',
      'A valid OAuth client could not be found for client_id: nobody',
    );
  });

  it('unknown client id sent form-encoded is reported decoded', async () => {
    const response = await oauth.clientCredentialsGrantRequest(
      authorizationServer,
      { client_id: 'no-body' },
      oauth.ClientSecretBasic('x'),
      {},
      inProcessOAuth(sandbox),
    );
    await expectTokenError(
      response,
      401,
      'invalid_client',
      'A valid OAuth client could not be found for client_id: no-body',
    );
  });

  it('wrong secret: 401 invalid_client, and oauth4webapi sees the Basic challenge', async () => {
    await expectTokenError(
      await postForm(
        '/oauth2/token',
        { grant_type: 'client_credentials' },
        { Authorization: rawBasic(demoApplication.clientId, 'wrong') },
      ),
      401,
      'invalid_client',
      'Client credentials are invalid.',
    );
    const response = await oauth.clientCredentialsGrantRequest(
      authorizationServer,
      client,
      oauth.ClientSecretBasic('wrong'),
      {},
      inProcessOAuth(sandbox),
    );
    const failure = await oauth
      .processClientCredentialsResponse(authorizationServer, client, response)
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(oauth.WWWAuthenticateChallengeError);
    expect((failure as oauth.WWWAuthenticateChallengeError).cause[0]?.scheme).toBe('basic');
  });

  it('no client authentication, or a client_id alone: 401 Unsupported Client Authentication Method!', async () => {
    for (const fields of [{}, { client_id: demoApplication.clientId }] as Record<string, string>[]) {
      await expectTokenError(
        await postForm('/oauth2/token', { grant_type: 'client_credentials', ...fields }),
        401,
        'invalid_client',
        'Unsupported Client Authentication Method!',
      );
    }
    await expectTokenError(
      await postForm('/oauth2/token', { grant_type: 'client_credentials' }, { Authorization: 'Bearer abc' }),
      401,
      'invalid_client',
      'Unsupported Client Authentication Method!',
    );
  });

  it('malformed Basic credentials: 401 Client credentials are invalid.', async () => {
    for (const header of ['Basic !!!', `Basic ${Buffer.from('no-colon').toString('base64')}`]) {
      await expectTokenError(
        await postForm('/oauth2/token', { grant_type: 'client_credentials' }, { Authorization: header }),
        401,
        'invalid_client',
        'Client credentials are invalid.',
      );
    }
  });

  it('Basic header and form secret together: refused (RFC 6749 §2.3)', async () => {
    await expectTokenError(
      await postForm(
        '/oauth2/token',
        {
          grant_type: 'client_credentials',
          client_id: demoApplication.clientId,
          client_secret: demoApplication.clientSecret,
        },
        { Authorization: demoBasic },
      ),
      400,
      'invalid_request',
      'Request body and headers contain authorization information',
    );
  });

  it('a body client_id that differs from the Basic one is refused', async () => {
    await expectTokenError(
      await postForm(
        '/oauth2/token',
        { grant_type: 'client_credentials', client_id: 'someone-else' },
        { Authorization: demoBasic },
      ),
      401,
      'invalid_client',
      'Client credentials are invalid.',
    );
  });

  it('unsupported and missing grant types: 400 invalid_request', async () => {
    await expectTokenError(
      await postForm('/oauth2/token', { grant_type: 'password' }, { Authorization: demoBasic }),
      400,
      'invalid_request',
      'Unsupported grant_type value',
    );
    await expectTokenError(
      await postForm('/oauth2/token', {}, { Authorization: demoBasic }),
      400,
      'invalid_request',
      'Missing grant_type parameter value',
    );
  });

  it('a grant without its parameter, a repeated parameter, a JSON body: 400 invalid_request', async () => {
    await expectTokenError(
      await postForm('/oauth2/token', { grant_type: 'authorization_code' }, { Authorization: demoBasic }),
      400,
      'invalid_request',
      'Missing parameters: code',
    );
    await expectTokenError(
      await postForm('/oauth2/token', { grant_type: 'refresh_token' }, { Authorization: demoBasic }),
      400,
      'invalid_request',
      'Missing parameters: refresh_token',
    );
    const repeated = await sandbox.auth.request(`${authUrl}/oauth2/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Authorization: demoBasic },
      body: 'grant_type=client_credentials&grant_type=client_credentials',
    });
    await expectTokenError(repeated, 400, 'invalid_request', 'Invalid request with repeated parameters.');
    const json = await sandbox.auth.request(`${authUrl}/oauth2/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: demoBasic },
      body: JSON.stringify({ grant_type: 'client_credentials' }),
    });
    await expectTokenError(
      json,
      400,
      'invalid_request',
      'Bad request content type. Expecting: application/x-www-form-urlencoded',
    );
  });

  it('never echoes the client secret in an error', async () => {
    const response = await postForm(
      '/oauth2/token',
      { grant_type: 'client_credentials' },
      { Authorization: rawBasic('nobody', 'super-secret-canary') },
    );
    expect(await response.text()).not.toContain('super-secret-canary');
  });
});

describe('revoke', () => {
  async function applicationToken(): Promise<string> {
    const response = await postForm(
      '/oauth2/token',
      { grant_type: 'client_credentials' },
      { Authorization: demoBasic },
    );
    return ((await response.json()) as { access_token: string }).access_token;
  }

  it('revokes with oauth4webapi: 200, empty body, the token then looks revoked', async () => {
    const token = await applicationToken();
    const response = await oauth.revocationRequest(
      authorizationServer,
      client,
      oauth.ClientSecretBasic(demoApplication.clientSecret),
      token,
      inProcessOAuth(sandbox),
    );
    expect(response.status).toBe(200);
    expect(await response.clone().text()).toBe('');
    await oauth.processRevocationResponse(response);
    expect(sandbox.state.tokens.lookupAccessToken(token)).toEqual({ ok: false, reason: 'revoked' });
  });

  it('answers 200 with an empty body for an unknown token too, and for another client’s token without revoking it', async () => {
    const unknown = await postForm(
      '/oauth2/revoke',
      { token: 'no-such-token' },
      { Authorization: demoBasic },
    );
    expect(unknown.status).toBe(200);
    expect(await unknown.text()).toBe('');
    sandbox = createSandbox({
      applications: [
        {
          clientId: 'other',
          clientSecret: 'other-secret',
          partnerTag: 'o',
          name: 'O',
          redirectUris: [],
          subscribed: true,
        },
      ],
    });
    const token = await applicationToken();
    const foreign = await postForm(
      '/oauth2/revoke',
      { token },
      { Authorization: rawBasic('other', 'other-secret') },
    );
    expect(foreign.status).toBe(200);
    expect(sandbox.state.tokens.lookupAccessToken(token).ok).toBe(true);
  });

  it('accepts the client in form fields', async () => {
    const token = await applicationToken();
    const response = await postForm('/oauth2/revoke', {
      token,
      client_id: demoApplication.clientId,
      client_secret: demoApplication.clientSecret,
    });
    expect(response.status).toBe(200);
    expect(sandbox.state.tokens.lookupAccessToken(token).ok).toBe(false);
  });

  it('missing token: 400 invalid_request "Invalid revocation request"', async () => {
    const response = await postForm('/oauth2/revoke', {}, { Authorization: demoBasic });
    expect(response.status).toBe(400);
    expect(await response.text()).toBe(
      JSON.stringify({ error: 'invalid_request', error_description: 'Invalid revocation request' }),
    );
  });

  it('bad, unknown or missing client: 401 invalid_client "Client Authentication failed." and nothing revoked', async () => {
    const token = await applicationToken();
    for (const headers of [
      { Authorization: rawBasic(demoApplication.clientId, 'wrong') },
      { Authorization: rawBasic('nobody', 'x') },
      {},
    ] as Record<string, string>[]) {
      const response = await postForm('/oauth2/revoke', { token }, headers);
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Basic realm=127.0.0.1');
      expect(await response.text()).toBe(
        JSON.stringify({ error: 'invalid_client', error_description: 'Client Authentication failed.' }),
      );
    }
    expect(sandbox.state.tokens.lookupAccessToken(token).ok).toBe(true);
  });
});

describe('the origin itself', () => {
  it('answers unknown paths with a 404 JSON body and wrong methods with 405', async () => {
    const missing = await sandbox.auth.request(`${authUrl}/oauth2/userinfo`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toMatch(/^application\/json/);
    const wrongMethod = await sandbox.auth.request(`${authUrl}/oauth2/token`);
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('POST');
  });

  it('is not CORS-enabled, even for a preflight', async () => {
    const preflight = await sandbox.auth.request(`${authUrl}/oauth2/token`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://partner.example', 'Access-Control-Request-Method': 'POST' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    const post = await postForm(
      '/oauth2/token',
      { grant_type: 'client_credentials' },
      { Authorization: demoBasic, Origin: 'https://partner.example' },
    );
    expect(post.headers.get('access-control-allow-origin')).toBeNull();
  });
});
