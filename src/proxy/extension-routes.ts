import { Hono, type Context, type MiddlewareHandler, type Next } from 'hono';
import {
  proxyRouteGroups,
  proxyRoutes,
  routeInGroup,
  type ExtensionTokenSet,
} from '../contracts/proxy-contract.ts';
import { isFirefoxRedirectUri } from '../local-defaults.ts';
import type { TokenSet } from '../platform/oauth.ts';
import { PlatformError } from '../platform/errors.ts';
import { corsFromAllowlist } from './cors.ts';
import { ProxyError } from './errors.ts';
import { readJsonObject, requireExtensionOrigin, requiredString } from './request-guards.ts';
import type { RateLimiter } from './state/rate-limiter.ts';
import type { ProxyRuntime } from './runtime.ts';

/**
 * Token mediation for the extension: the extension runs the fan's sign-in itself (its own redirect URI, its own
 * PKCE verifier) and the proxy adds the secret to the code exchange, the refresh and the revoke. Only the
 * extension's configured origins and registered redirect URIs; the answer is the one place a token leaves the proxy.
 */
export function extensionRoutes(runtime: ProxyRuntime): Hono {
  const app = new Hono();
  const { config, logger } = runtime;
  const isListed = (origin: string) => config.extensionOrigins.includes(origin);
  // Firefox gives every install its own random uuid, so a list cannot name them: an opt-in (sandbox default).
  const isAnyFirefox = (origin: string) => config.acceptAnyFirefoxOrigin && mozExtensionOrigin.test(origin);
  const isExtension = (origin: string) => isListed(origin) || isAnyFirefox(origin);
  const paths = {
    token: routeInGroup(proxyRouteGroups.extension, proxyRoutes.extensionToken),
    refresh: routeInGroup(proxyRouteGroups.extension, proxyRoutes.extensionRefresh),
    revoke: routeInGroup(proxyRouteGroups.extension, proxyRoutes.extensionRevoke),
  };
  app.use('*', corsFromAllowlist(isExtension, { credentials: false, methods: ['POST'] }));
  app.use('*', requireExtensionOrigin(isExtension));
  app.use('*', async (c: Context, next: Next) => {
    c.header('Cache-Control', 'no-store');
    c.header('Pragma', 'no-cache');
    await next();
  });
  // A code exchange is a sign-in: the strict limit. Refresh and revoke run all day for every fan behind one address
  // (a stadium's NAT), so they have their own, higher one.
  app.use(
    paths.token,
    limitedBy(runtime, runtime.signInLimiter, 'Too many sign-in requests. Wait a minute.'),
  );
  const tokenMediationLimit = limitedBy(
    runtime,
    runtime.tokenMediationLimiter,
    'Too many token requests. Wait a minute.',
  );
  app.use(paths.refresh, tokenMediationLimit);
  app.use(paths.revoke, tokenMediationLimit);

  app.post(paths.token, async (c) => {
    const body = await readJsonObject(c.req.raw);
    const redirectUri = requiredString(body, 'redirectUri', 512);
    if (!config.extensionRedirectUris.includes(redirectUri)) {
      throw new ProxyError('invalid_redirect_uri', 'This redirect URI is not the extension’s.');
    }
    // An origin let in only as "some Firefox install" exchanges codes for a Firefox redirect URI only.
    if (!isListed(c.req.header('Origin') ?? '') && !isFirefoxRedirectUri(redirectUri)) {
      throw new ProxyError('invalid_redirect_uri', 'This redirect URI is not the Firefox extension’s.');
    }
    const code = requiredString(body, 'code', 2048);
    const codeVerifier = requiredString(body, 'codeVerifier', 256);
    let tokens: TokenSet;
    try {
      tokens = await mediated(() => runtime.platform.oauth.exchangeCode({ code, codeVerifier, redirectUri }));
    } catch (error) {
      // A refused code is a sign-in that failed; a platform that did not answer says nothing of the fan's.
      if (error instanceof ProxyError && error.code === 'invalid_grant')
        runtime.analytics.extensionSignIn(false);
      throw error;
    }
    runtime.analytics.extensionSignIn(true);
    logger.log('info', 'extension_signed_in');
    return c.json(tokenSetForExtension(tokens));
  });

  app.post(paths.refresh, async (c) => {
    const body = await readJsonObject(c.req.raw);
    const tokens = await mediated(() =>
      runtime.platform.oauth.refresh(requiredString(body, 'refreshToken', 2048)),
    );
    return c.json(tokenSetForExtension(tokens));
  });

  app.post(paths.revoke, async (c) => {
    const body = await readJsonObject(c.req.raw);
    await mediated(() => runtime.platform.oauth.revoke(requiredString(body, 'token', 2048)));
    return c.body(null, 204);
  });

  return app;
}

/** `moz-extension://<uuid>`: the origin Firefox gives one install of an extension. */
const mozExtensionOrigin = /^moz-extension:\/\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The limiter's verdict for this client address, as the proxy's `rate_limited` error. */
function limitedBy(runtime: ProxyRuntime, limiter: RateLimiter, message: string): MiddlewareHandler {
  return async (c, next) => {
    const retryAfter = await limiter.take(`extension:${runtime.clientAddress(c)}`);
    if (retryAfter !== undefined) {
      throw new ProxyError('rate_limited', message, { retryAfterSeconds: retryAfter });
    }
    await next();
  };
}

/** A refused code or refresh token is the extension's problem to solve (sign in again), not a proxy failure. */
async function mediated<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (
      error instanceof PlatformError &&
      (error.code === 'invalid_token' || error.oauthError === 'invalid_grant')
    ) {
      throw new ProxyError('invalid_grant', 'The platform refused this code or token: sign in again.', {
        cause: error,
      });
    }
    throw error;
  }
}

function tokenSetForExtension(tokens: TokenSet): ExtensionTokenSet {
  return {
    accessToken: tokens.accessToken,
    ...(tokens.refreshToken === undefined ? {} : { refreshToken: tokens.refreshToken }),
    ...(tokens.expiresIn === undefined ? {} : { expiresIn: tokens.expiresIn }),
  };
}
