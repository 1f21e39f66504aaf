import { PlatformClient, type TokenProvider } from '../platform/client.ts';
import type { FetchLike } from '../platform/http.ts';
import { OAuthClient } from '../platform/oauth.ts';
import { applicationTokenKeeper, type TokenKeeper } from '../platform/token-keeper.ts';
import type { ProxyConfig } from './config.ts';

/**
 * The proxy's three handles on the platform, all from `src/platform`: the OAuth client (the only holder of the
 * secret), the public client on the application's cached client-credentials token, and a client per fan request
 * on that fan's token keeper.
 */
export interface PlatformAccess {
  readonly oauth: OAuthClient;
  readonly applicationTokens: TokenKeeper;
  readonly publicClient: PlatformClient;
  userClient(tokens: TokenProvider): PlatformClient;
}

export function createPlatformAccess(
  config: ProxyConfig,
  fetch: FetchLike,
  now: () => number,
  /** The application token's keeper, when it is shared (Redis); default: this instance's own. */
  applicationTokensFor?: (oauth: OAuthClient) => TokenKeeper,
): PlatformAccess {
  const oauth = new OAuthClient({
    authUrl: config.platformAuthUrl,
    clientId: config.clientId,
    clientSecret: config.clientSecret,
    basicEncoding: config.basicEncoding === 'raw' ? 'raw' : 'rfc6749',
    allowInsecureRequests: config.allowInsecureRequests,
    fetch,
    now,
  });
  const applicationTokens = applicationTokensFor?.(oauth) ?? applicationTokenKeeper(oauth, { now });
  const clientFor = (tokens: TokenProvider, kind: 'application' | 'user') =>
    new PlatformClient({
      apiUrl: config.platformApiUrl,
      allowInsecureRequests: config.allowInsecureRequests,
      fetch,
      now,
      tokens: { [kind]: tokens },
    });
  return {
    oauth,
    applicationTokens,
    publicClient: clientFor(applicationTokens, 'application'),
    userClient: (tokens) => clientFor(tokens, 'user'),
  };
}
