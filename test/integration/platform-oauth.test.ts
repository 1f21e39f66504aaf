// The OAuth helpers against the sandbox's OAuth server, in-process and over sockets: client credentials with both
// Basic encodings, the authorization-code flow through the consent form, refresh rotation, revoke, and the errors.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { demoApplication } from '../../src/local-defaults.ts';
import { PlatformClient } from '../../src/platform/client.ts';
import {
  createAuthorizationRequest,
  validateCallback,
  type OAuthClientSettings,
  type TokenSet,
} from '../../src/platform/oauth.ts';
import { userTokenKeeper } from '../../src/platform/token-keeper.ts';
import { fans } from '../../src/sandbox/data/fans.ts';
import { answerConsent } from '../../src/sandbox/oauth/headless-consent.ts';
import { canaryTokenPrefix } from '../support/canary.ts';
import { platformErrorOf } from '../support/platform-error.ts';
import { demoOAuthClient, sandboxModes, type SandboxUnderTest } from '../support/sandbox-modes.ts';

const redirectUri = 'https://partner.example/auth/callback';
const sandboxOptions = {
  simulatedVotesPerMinute: 0,
  tokenPrefix: canaryTokenPrefix,
  extraRedirectUris: [redirectUri],
};

describe.each(sandboxModes(sandboxOptions))('OAuth against the sandbox (%s)', (_mode, start) => {
  let harness: SandboxUnderTest;

  const oauthClient = (settings: Partial<OAuthClientSettings> = {}) => demoOAuthClient(harness, settings);

  const apiClient = (userToken: () => Promise<string>) =>
    new PlatformClient({
      apiUrl: harness.apiUrl,
      allowInsecureRequests: true,
      fetch: harness.fetch,
      tokens: { user: userToken },
    });

  /** The whole user-connect flow, the fan answering the consent form like a browser. */
  async function signIn(
    username = 'alex',
    decision: 'allow' | 'deny' = 'allow',
  ): Promise<{ callback: URL; state: string; codeVerifier: string }> {
    const request = await createAuthorizationRequest({
      authUrl: harness.authUrl,
      clientId: demoApplication.clientId,
      partnerTag: demoApplication.partnerTag,
      redirectUri,
      tracking: {
        referrer: 'club-site',
        campaign: 'c-42',
        param1: 'website',
        param2: 'match',
        param3: 'iframe',
      },
    });
    const outcome = await answerConsent(harness.fetch, request.url.toString(), { decision, username });
    if (outcome.kind !== 'redirect') throw new Error(`consent ended on a page (${outcome.status})`);
    return { callback: new URL(outcome.location), state: request.state, codeVerifier: request.codeVerifier };
  }

  async function signedIn(username = 'alex', settings: Partial<OAuthClientSettings> = {}): Promise<TokenSet> {
    const { callback, state, codeVerifier } = await signIn(username);
    const { code } = validateCallback(
      { authUrl: harness.authUrl, clientId: demoApplication.clientId },
      callback,
      state,
    );
    return oauthClient(settings).exchangeCode({ code, codeVerifier, redirectUri });
  }

  beforeAll(async () => {
    harness = await start();
  });
  afterAll(async () => {
    await harness.close();
  });
  beforeEach(() => {
    harness.sandbox.reset();
  });

  describe('client credentials', () => {
    it.each(['raw', 'rfc6749'] as const)('works with %s Basic encoding', async (basicEncoding) => {
      const tokens = await oauthClient({ basicEncoding }).clientCredentials();
      expect(tokens.accessToken).toMatch(new RegExp(`^${canaryTokenPrefix}`));
      expect(tokens.refreshToken).toBeUndefined();
      expect(harness.sandbox.state.tokens.lookupAccessToken(tokens.accessToken).ok).toBe(true);
    });

    it('a wrong secret is an oauth_error invalid_client, the secret in no message', async () => {
      const error = await platformErrorOf(
        oauthClient({ clientSecret: 'wrong-secret-value' }).clientCredentials(),
      );
      expect(error).toMatchObject({ code: 'oauth_error', status: 401, oauthError: 'invalid_client' });
      expect(error.message).not.toContain('wrong-secret-value');
    });

    it('an unknown client is an oauth_error invalid_client', async () => {
      const error = await platformErrorOf(oauthClient({ clientId: 'nobody' }).clientCredentials());
      expect(error).toMatchObject({ code: 'oauth_error', oauthError: 'invalid_client' });
    });
  });

  describe('authorization code', () => {
    it('signs a fan in: code with state, exchange with PKCE, the user API answers for that fan', async () => {
      const tokens = await signedIn('alex');
      expect(tokens.refreshToken).toMatch(new RegExp(`^${canaryTokenPrefix}`));
      expect(tokens.expiresIn).toBe(harness.sandbox.state.lifetimes.accessTokenSeconds);
      expect(tokens.expiresAt).toBeGreaterThan(Date.now());
      const me = await apiClient(() => Promise.resolve(tokens.accessToken)).getCurrentUser();
      expect(me.userId).toBe(fans.find((fan) => fan.username === 'alex')!.userId);
    });

    it('exchanges with the secret in Basic as well (a setting)', async () => {
      const tokens = await signedIn('sam', { codeExchangeAuth: 'basic', basicEncoding: 'rfc6749' });
      expect(tokens.accessToken).toMatch(new RegExp(`^${canaryTokenPrefix}`));
    });

    it('the fan’s refusal is access_denied', async () => {
      const { callback, state } = await signIn('alex', 'deny');
      const error = await platformErrorOf(
        Promise.resolve().then(() =>
          validateCallback({ authUrl: harness.authUrl, clientId: demoApplication.clientId }, callback, state),
        ),
      );
      expect(error.code).toBe('access_denied');
    });

    it('a callback for another sign-in (state) is refused before any exchange', async () => {
      const { callback } = await signIn();
      expect(() =>
        validateCallback(
          { authUrl: harness.authUrl, clientId: demoApplication.clientId },
          callback,
          'other-state',
        ),
      ).toThrow(expect.objectContaining({ code: 'invalid_input' }) as Error);
    });

    it('a wrong verifier, a reused code, another redirect: invalid_grant', async () => {
      const { callback, state, codeVerifier } = await signIn();
      const { code } = validateCallback(
        { authUrl: harness.authUrl, clientId: demoApplication.clientId },
        callback,
        state,
      );
      const oauth = oauthClient();
      const wrongVerifier = await platformErrorOf(
        oauth.exchangeCode({ code, codeVerifier: 'x'.repeat(43), redirectUri }),
      );
      expect(wrongVerifier).toMatchObject({ code: 'oauth_error', oauthError: 'invalid_grant' });

      const second = await signIn();
      const secondCode = validateCallback(
        { authUrl: harness.authUrl, clientId: demoApplication.clientId },
        second.callback,
        second.state,
      ).code;
      const elsewhere = await platformErrorOf(
        oauth.exchangeCode({
          code: secondCode,
          codeVerifier: second.codeVerifier,
          redirectUri: `${redirectUri}/x`,
        }),
      );
      expect(elsewhere).toMatchObject({ code: 'oauth_error', oauthError: 'invalid_grant' });

      const third = await signIn();
      const thirdCode = validateCallback(
        { authUrl: harness.authUrl, clientId: demoApplication.clientId },
        third.callback,
        third.state,
      ).code;
      await oauth.exchangeCode({ code: thirdCode, codeVerifier: third.codeVerifier, redirectUri });
      const reused = await platformErrorOf(
        oauth.exchangeCode({ code: thirdCode, codeVerifier: third.codeVerifier, redirectUri }),
      );
      expect(reused).toMatchObject({ code: 'oauth_error', oauthError: 'invalid_grant' });
      expect(codeVerifier).not.toBe(third.codeVerifier);
    });
  });

  describe('refresh and revoke', () => {
    it('refresh rotates: the new pair works, the old refresh token signs out', async () => {
      const first = await signedIn();
      const oauth = oauthClient();
      const second = await oauth.refresh(first.refreshToken!);
      expect(second.accessToken).not.toBe(first.accessToken);
      expect(second.refreshToken).not.toBe(first.refreshToken);
      await expect(
        apiClient(() => Promise.resolve(second.accessToken)).getCurrentUser(),
      ).resolves.toBeDefined();
      const error = await platformErrorOf(oauth.refresh(first.refreshToken!));
      expect(error).toMatchObject({ code: 'invalid_token', oauthError: 'invalid_grant' });
    });

    it('the user keeper refreshes after the platform refuses an expired token, and persists the new pair', async () => {
      const stored: TokenSet[] = [];
      const oauth = oauthClient();
      const keeper = userTokenKeeper((refreshToken) => oauth.refresh(refreshToken), {
        initial: await signedIn(),
        onTokens: (tokens) => {
          stored.push(tokens);
        },
      });
      const api = apiClient(() => keeper.token());
      const keeperApi = new PlatformClient({
        apiUrl: harness.apiUrl,
        allowInsecureRequests: true,
        fetch: harness.fetch,
        tokens: { user: keeper },
      });
      await api.getCurrentUser();
      harness.sandbox.clock.advance(harness.sandbox.state.lifetimes.accessTokenSeconds * 1000 + 1000);
      await expect(keeperApi.getCurrentUser()).resolves.toBeDefined();
      expect(stored).toHaveLength(1);
      expect(stored[0]!.refreshToken).toBe(keeper.tokens?.refreshToken);
    });

    it('a keeper whose refresh token expired signs the fan out', async () => {
      let signedOut = 0;
      const oauth = oauthClient();
      const keeper = userTokenKeeper((refreshToken) => oauth.refresh(refreshToken), {
        initial: await signedIn(),
        onSignedOut: () => {
          signedOut += 1;
        },
      });
      harness.sandbox.clock.advance(harness.sandbox.state.lifetimes.refreshTokenSeconds * 1000 + 1000);
      const api = new PlatformClient({
        apiUrl: harness.apiUrl,
        allowInsecureRequests: true,
        fetch: harness.fetch,
        tokens: { user: keeper },
      });
      expect((await platformErrorOf(api.getCurrentUser())).code).toBe('invalid_token');
      expect(signedOut).toBe(1);
      expect(keeper.tokens).toBeUndefined();
    });

    it('revoke ends both tokens of the pair; an unknown token revokes quietly', async () => {
      const tokens = await signedIn();
      const oauth = oauthClient();
      await oauth.revoke(tokens.accessToken);
      expect(
        (await platformErrorOf(apiClient(() => Promise.resolve(tokens.accessToken)).getCurrentUser())).code,
      ).toBe('invalid_token');
      expect((await platformErrorOf(oauth.refresh(tokens.refreshToken!))).code).toBe('invalid_token');
      await expect(oauth.revoke(`${canaryTokenPrefix}unknown`)).resolves.toBeUndefined();
    });

    it('revoke with a wrong secret is an oauth_error', async () => {
      const error = await platformErrorOf(
        oauthClient({ clientSecret: 'nope' }).revoke(`${canaryTokenPrefix}x`),
      );
      expect(error).toMatchObject({ code: 'oauth_error', oauthError: 'invalid_client' });
    });
  });
});
