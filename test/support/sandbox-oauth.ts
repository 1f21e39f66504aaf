// The sandbox's OAuth server as oauth4webapi sees it, for tests that drive it as a partner's server would: its
// metadata, the demo application as a client, the start of an authorization-code flow with PKCE, and in-process
// requests.
import * as oauth from 'oauth4webapi';
import { demoApplication } from '../../src/local-defaults.ts';
import type { Sandbox } from '../../src/sandbox/sandbox.ts';

/** The endpoints of the sandbox's OAuth server at `authUrl` (no discovery: the platform has none). */
export function sandboxAuthorizationServer(authUrl: string): oauth.AuthorizationServer {
  return {
    issuer: authUrl,
    authorization_endpoint: `${authUrl}/oauth2/authorize`,
    token_endpoint: `${authUrl}/oauth2/token`,
    revocation_endpoint: `${authUrl}/oauth2/revoke`,
  };
}

export const demoClient: oauth.Client = { client_id: demoApplication.clientId };
/** oauth4webapi's Basic (form-encoded id and secret), which the sandbox accepts like the raw form. */
export const demoClientAuth = oauth.ClientSecretBasic(demoApplication.clientSecret);

export interface StartedAuthorization {
  /** The authorize URL to open. */
  readonly url: URL;
  readonly state: string;
  readonly verifier: string;
}

/**
 * The demo application's authorize URL (`response_type`, `client_id`, `redirect_uri`, `partner_tag`) with `extra`
 * parameters; a `null` in `extra` leaves that parameter out.
 */
export function demoAuthorizeUrl(
  server: oauth.AuthorizationServer,
  redirectUri: string,
  extra: Record<string, string | null> = {},
): URL {
  const params = new URLSearchParams({
    response_type: 'code',
    client_id: demoApplication.clientId,
    redirect_uri: redirectUri,
    partner_tag: demoApplication.partnerTag,
  });
  for (const [name, value] of Object.entries(extra)) {
    if (value === null) params.delete(name);
    else params.set(name, value);
  }
  const url = new URL(server.authorization_endpoint!);
  url.search = params.toString();
  return url;
}

/** A fresh state and PKCE S256 verifier, and the demo application's authorize URL with them (and `extra`). */
export async function startAuthorization(
  server: oauth.AuthorizationServer,
  redirectUri: string,
  extra: Record<string, string> = {},
): Promise<StartedAuthorization> {
  const state = oauth.generateRandomState();
  const verifier = oauth.generateRandomCodeVerifier();
  const url = demoAuthorizeUrl(server, redirectUri, {
    state,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    ...extra,
  });
  return { url, state, verifier };
}

/** oauth4webapi request options that send to the sandbox's OAuth server in-process, over plain http. */
export function inProcessOAuth(sandbox: Sandbox) {
  return {
    [oauth.customFetch]: (url: string, init: oauth.CustomFetchOptions<string, unknown>) =>
      Promise.resolve(sandbox.auth.request(url, init as RequestInit)),
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- plain http: the sandbox in tests
    [oauth.allowInsecureRequests]: true,
  };
}

/** A refresh-token grant (request and checked answer), by the demo application unless told otherwise. */
export async function refreshTokens(
  server: oauth.AuthorizationServer,
  refreshToken: string,
  options: oauth.TokenEndpointRequestOptions,
  client: oauth.Client = demoClient,
  clientAuth: oauth.ClientAuth = demoClientAuth,
): Promise<oauth.TokenEndpointResponse> {
  const response = await oauth.refreshTokenGrantRequest(server, client, clientAuth, refreshToken, options);
  return oauth.processRefreshTokenResponse(server, client, response);
}
