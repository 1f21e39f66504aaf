/**
 * The platform's OAuth 2.0 flows on oauth4webapi: client credentials, the authorize URL (state, PKCE S256,
 * `partner_tag`, tracking parameters), callback validation, code exchange, refresh and revoke. Every failure is a
 * PlatformError; no message carries a token or the secret.
 */
import { encodeBase64 } from 'hono/utils/encode';
import * as oauth from 'oauth4webapi';
import { appendTracking, cleanTracking, type TrackingSource } from '../contracts/tracking.ts';
import { defaultTimeoutMs } from './config.ts';
import { PlatformError, errorFromFetchFailure } from './errors.ts';
import { globalFetch, readJsonBody, type FetchLike } from './http.ts';
import { isRecord } from '../contracts/is-record.ts';
import { parseTokenError } from './parse.ts';
import { retryAtFrom } from './retry-after.ts';

/** Tokens as the rest of Fan Polls holds them. */
export interface TokenSet {
  readonly accessToken: string;
  readonly refreshToken?: string;
  /** Milliseconds since the epoch, from `expires_in` and the injected clock; absent when the server did not say. */
  readonly expiresAt?: number;
  /** Seconds, as the server sent it. */
  readonly expiresIn?: number;
  readonly scope?: string;
}

/**
 * How id and secret go into `Authorization: Basic`: `raw` is `Base64(id:secret)` as the platform's spec shows;
 * `rfc6749` form-encodes both first (RFC 6749 §2.3.1, oauth4webapi's ClientSecretBasic). They differ only when the
 * id or secret holds characters such as `-`, `.` or `~`.
 */
export type BasicCredentialEncoding = 'raw' | 'rfc6749';

/** Where the client credentials go: the Basic header or the `client_id`/`client_secret` form fields. */
export type ClientAuthPlacement = 'basic' | 'form';

export interface OAuthServerSettings {
  /** `{auth_url}`: `https://partner.socios.com` in production. */
  readonly authUrl: string;
  /** Plain http: the sandbox and tests only. */
  readonly allowInsecureRequests?: boolean;
  readonly fetch?: FetchLike;
  readonly timeoutMs?: number;
  /** Milliseconds since the epoch; `Date.now` unless a test injects a clock. */
  readonly now?: () => number;
}

export interface OAuthClientSettings extends OAuthServerSettings {
  readonly clientId: string;
  readonly clientSecret: string;
  /** Default `raw`, as the spec shows it. */
  readonly basicEncoding?: BasicCredentialEncoding;
  /** Code exchange: default `form`, the spec's mandatory form fields. */
  readonly codeExchangeAuth?: ClientAuthPlacement;
  /** Refresh: default `basic`. */
  readonly refreshAuth?: ClientAuthPlacement;
}

/** The OAuth server as a plain object: no discovery; the three endpoints live under `{auth_url}/oauth2/`. */
export function authorizationServer(authUrl: string): oauth.AuthorizationServer {
  const base = authUrl.replace(/\/+$/, '');
  return {
    issuer: base,
    authorization_endpoint: `${base}/oauth2/authorize`,
    token_endpoint: `${base}/oauth2/token`,
    revocation_endpoint: `${base}/oauth2/revoke`,
    code_challenge_methods_supported: ['S256'],
  };
}

/** `Authorization: Basic Base64(id:secret)` with no form-encoding, UTF-8 bytes. */
function rawClientSecretBasic(clientSecret: string): oauth.ClientAuth {
  return (_as, client, _body, headers) => {
    headers.set(
      'authorization',
      `Basic ${encodeBase64(new TextEncoder().encode(`${client.client_id}:${clientSecret}`).buffer)}`,
    );
  };
}

function clientAuthentication(
  placement: ClientAuthPlacement,
  encoding: BasicCredentialEncoding,
  clientSecret: string,
): oauth.ClientAuth {
  if (placement === 'form') return oauth.ClientSecretPost(clientSecret);
  return encoding === 'raw' ? rawClientSecretBasic(clientSecret) : oauth.ClientSecretBasic(clientSecret);
}

export interface AuthorizationRequestInput {
  readonly authUrl: string;
  readonly clientId: string;
  /** The developer portal user name. */
  readonly partnerTag: string;
  readonly redirectUri: string;
  /** Raw values: the five parameters' rule (`cleanTracking`) applies here. */
  readonly tracking?: TrackingSource;
  /** Generated when absent. */
  readonly state?: string;
  /** Generated when absent. */
  readonly codeVerifier?: string;
}

/** What to send the fan's browser to, and what to keep (server side or in the extension) for the callback. */
export interface AuthorizationRequest {
  readonly url: URL;
  readonly state: string;
  readonly codeVerifier: string;
}

export async function createAuthorizationRequest(
  input: AuthorizationRequestInput,
): Promise<AuthorizationRequest> {
  for (const [name, value] of [
    ['clientId', input.clientId],
    ['partnerTag', input.partnerTag],
    ['redirectUri', input.redirectUri],
  ] as const) {
    if (value.trim() === '') throw new PlatformError('invalid_input', `${name} is required`);
  }
  if (!URL.canParse(input.redirectUri)) throw new PlatformError('invalid_input', 'redirectUri is not a URL');
  const state = input.state ?? oauth.generateRandomState();
  const codeVerifier = input.codeVerifier ?? oauth.generateRandomCodeVerifier();
  const url = new URL(`${input.authUrl.replace(/\/+$/, '')}/oauth2/authorize`);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', input.clientId);
  url.searchParams.set('partner_tag', input.partnerTag);
  url.searchParams.set('redirect_uri', input.redirectUri);
  url.searchParams.set('state', state);
  url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(codeVerifier));
  url.searchParams.set('code_challenge_method', 'S256');
  // The last gate before the platform: whoever asked (the proxy's query, the extension's bridge), one rule.
  appendTracking(url.searchParams, cleanTracking(input.tracking ?? {}));
  return { url, state, codeVerifier };
}

/**
 * Checks the redirect the fan came back with (state, error) and returns the authorization code. The fan's refusal
 * is `access_denied`; any other `error` is `oauth_error`; a wrong or missing state is `invalid_input`.
 */
export function validateCallback(
  settings: { readonly authUrl: string; readonly clientId: string },
  callback: URL | URLSearchParams,
  expectedState: string,
): { readonly code: string } {
  const as = authorizationServer(settings.authUrl);
  let parameters: URLSearchParams;
  try {
    parameters = oauth.validateAuthResponse(as, { client_id: settings.clientId }, callback, expectedState);
  } catch (error) {
    if (error instanceof oauth.AuthorizationResponseError) {
      const details = {
        oauthError: error.error,
        ...(error.error_description === undefined ? {} : { oauthErrorDescription: error.error_description }),
        cause: error,
      };
      if (error.error === 'access_denied') {
        throw new PlatformError('access_denied', 'The fan did not give consent', details);
      }
      throw new PlatformError('oauth_error', `The authorize step failed: ${error.error}`, details);
    }
    throw new PlatformError('invalid_input', 'The callback does not answer this sign-in (state)', {
      cause: error,
    });
  }
  const code = parameters.get('code');
  if (code === null || code === '') {
    throw new PlatformError('invalid_input', 'The callback carries no authorization code');
  }
  return { code };
}

type TokenGrant = 'client_credentials' | 'authorization_code' | 'refresh_token';

/** The secret-holding side of OAuth: the partner proxy (or a server-side test). */
export class OAuthClient {
  readonly #settings: OAuthClientSettings;
  readonly #as: oauth.AuthorizationServer;
  readonly #client: oauth.Client;
  readonly #now: () => number;

  constructor(settings: OAuthClientSettings) {
    if (settings.clientId === '' || settings.clientSecret === '') {
      throw new PlatformError('invalid_input', 'clientId and clientSecret are required');
    }
    this.#settings = settings;
    this.#as = authorizationServer(settings.authUrl);
    this.#client = { client_id: settings.clientId };
    this.#now = settings.now ?? Date.now;
  }

  get clientId(): string {
    return this.#settings.clientId;
  }

  /** An application token (client credentials, Basic). */
  async clientCredentials(): Promise<TokenSet> {
    return this.#tokenRequest(
      'client_credentials',
      (options) =>
        oauth.clientCredentialsGrantRequest(this.#as, this.#client, this.#auth('basic'), {}, options),
      (response) => oauth.processClientCredentialsResponse(this.#as, this.#client, response),
    );
  }

  /** Exchanges an authorization code (from `validateCallback`) for the fan's tokens. */
  async exchangeCode(input: {
    readonly code: string;
    readonly codeVerifier: string;
    readonly redirectUri: string;
  }): Promise<TokenSet> {
    if (input.code === '') throw new PlatformError('invalid_input', 'code is required');
    if (input.codeVerifier === '') throw new PlatformError('invalid_input', 'codeVerifier is required');
    // oauth4webapi only takes callback parameters it validated itself; the state was checked by validateCallback.
    const callback = oauth.validateAuthResponse(
      this.#as,
      this.#client,
      new URLSearchParams({ code: input.code }),
      oauth.expectNoState,
    );
    const placement = this.#settings.codeExchangeAuth ?? 'form';
    return this.#tokenRequest(
      'authorization_code',
      (options) =>
        oauth.authorizationCodeGrantRequest(
          this.#as,
          this.#client,
          this.#auth(placement),
          callback,
          input.redirectUri,
          input.codeVerifier,
          options,
        ),
      (response) => oauth.processAuthorizationCodeResponse(this.#as, this.#client, response),
    );
  }

  /**
   * Rotates the fan's tokens. The old refresh token stops working: persist the new pair. A refused refresh token
   * (invalid_grant) is `invalid_token`: the fan is signed out.
   */
  async refresh(refreshToken: string): Promise<TokenSet> {
    if (refreshToken === '') throw new PlatformError('invalid_input', 'refreshToken is required');
    const placement = this.#settings.refreshAuth ?? 'basic';
    return this.#tokenRequest(
      'refresh_token',
      (options) =>
        oauth.refreshTokenGrantRequest(this.#as, this.#client, this.#auth(placement), refreshToken, options),
      (response) => oauth.processRefreshTokenResponse(this.#as, this.#client, response),
    );
  }

  /**
   * Asks the server to revoke a token. Its 200 proves nothing (it answers 200 for unknown tokens too): clear local
   * state first, then call this.
   */
  async revoke(token: string): Promise<void> {
    if (token === '') throw new PlatformError('invalid_input', 'token is required');
    const response = await this.#send('revoke', (options) =>
      oauth.revocationRequest(this.#as, this.#client, this.#auth('basic'), token, options),
    );
    if (response.status === 200) {
      await response.body?.cancel();
      return;
    }
    throw await this.#errorFromResponse(response, 'revoke');
  }

  #auth(placement: ClientAuthPlacement): oauth.ClientAuth {
    return clientAuthentication(
      placement,
      this.#settings.basicEncoding ?? 'raw',
      this.#settings.clientSecret,
    );
  }

  #options(): oauth.TokenEndpointRequestOptions {
    const fetchImpl = this.#settings.fetch ?? globalFetch;
    const timeoutMs = this.#settings.timeoutMs ?? defaultTimeoutMs;
    return {
      signal: () => AbortSignal.timeout(timeoutMs),
      [oauth.customFetch]: (url, init) => fetchImpl(url, init),
      // oauth4webapi marks the symbol deprecated (plain http is for tests); this is exactly the sandbox's use.
      // eslint-disable-next-line @typescript-eslint/no-deprecated
      [oauth.allowInsecureRequests]: this.#settings.allowInsecureRequests === true,
    };
  }

  async #send(
    what: string,
    request: (options: oauth.TokenEndpointRequestOptions) => Promise<Response>,
  ): Promise<Response> {
    try {
      return await request(this.#options());
    } catch (error) {
      if (isOauthLibraryError(error)) {
        throw new PlatformError('invalid_input', `OAuth ${what}: the request could not be built`, {
          cause: error,
        });
      }
      throw errorFromFetchFailure(error, `OAuth ${what}`);
    }
  }

  async #tokenRequest(
    grant: TokenGrant,
    request: (options: oauth.TokenEndpointRequestOptions) => Promise<Response>,
    process: (response: Response) => Promise<oauth.TokenEndpointResponse>,
  ): Promise<TokenSet> {
    const sentAt = this.#now();
    const response = await this.#send(grant, request);
    if (response.status !== 200) throw await this.#errorFromResponse(response, grant);
    let body: oauth.TokenEndpointResponse;
    try {
      body = await process(response);
    } catch (error) {
      if (isTimeout(error)) throw errorFromFetchFailure(error, `OAuth ${grant}`);
      throw new PlatformError('malformed_response', `OAuth ${grant}: the token response is not usable`, {
        status: response.status,
        cause: error,
      });
    }
    return tokenSetFrom(body, sentAt);
  }

  async #errorFromResponse(response: Response, what: TokenGrant | 'revoke'): Promise<PlatformError> {
    let body: unknown;
    try {
      body = await readJsonBody(response);
    } catch (error) {
      return errorFromFetchFailure(error, `OAuth ${what}`);
    }
    const status = response.status;
    if (status === 429) {
      return new PlatformError('throttled', `OAuth ${what}: throttled`, {
        status,
        retryAt: retryAtFrom(
          response.headers.get('retry-after'),
          isRecord(body) ? body.nextAccessTime : undefined,
          this.#now(),
        ),
      });
    }
    const tokenError = parseTokenError(body);
    if (tokenError && status >= 400 && status < 500) {
      const details = {
        status,
        oauthError: tokenError.error,
        ...(tokenError.errorDescription === undefined
          ? {}
          : { oauthErrorDescription: tokenError.errorDescription }),
      };
      if (what === 'refresh_token' && tokenError.error === 'invalid_grant') {
        return new PlatformError(
          'invalid_token',
          'The refresh token is no longer valid: signed out',
          details,
        );
      }
      return new PlatformError('oauth_error', `OAuth ${what} refused: ${tokenError.error}`, details);
    }
    return new PlatformError('platform_error', `OAuth ${what}: unexpected HTTP ${status}`, { status });
  }
}

function tokenSetFrom(body: oauth.TokenEndpointResponse, sentAt: number): TokenSet {
  const expiresIn =
    typeof body.expires_in === 'number' && Number.isFinite(body.expires_in) && body.expires_in >= 0
      ? body.expires_in
      : undefined;
  return {
    accessToken: body.access_token,
    ...(body.refresh_token === undefined ? {} : { refreshToken: body.refresh_token }),
    // Counted from when the request left, so that a slow answer errs on the early side.
    ...(expiresIn === undefined ? {} : { expiresIn, expiresAt: sentAt + expiresIn * 1000 }),
    ...(body.scope === undefined ? {} : { scope: body.scope }),
  };
}

function isOauthLibraryError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && (code.startsWith('OAUTH_') || code.startsWith('ERR_INVALID_ARG'));
}

function isTimeout(error: unknown): boolean {
  return (
    (error instanceof Error || error instanceof DOMException) &&
    (error.name === 'TimeoutError' || error.name === 'AbortError')
  );
}
