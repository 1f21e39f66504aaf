import { Hono, type Context } from 'hono';
import type { SessionStatus, SignInResultMessage } from '../contracts/proxy-contract.ts';
import { PlatformError } from '../platform/errors.ts';
import { createAuthorizationRequest, validateCallback } from '../platform/oauth.ts';
import { userTokenKeeper } from '../platform/token-keeper.ts';
import { renderCallbackPage } from './callback-page.ts';
import { corsFromAllowlist } from './cors.ts';
import { endSession } from './end-session.ts';
import { ProxyError } from './errors.ts';
import { readJsonObject, requireAllowedPage, requiredString } from './request-guards.ts';
import type { ProxyRuntime } from './runtime.ts';
import { clearSessionCookie, readSessionId, writeSessionCookie } from './session-cookie.ts';
import { randomId, type Session } from './state/session-store.ts';

/**
 * Sign-in for cards without the extension (a backend-for-frontend): the popup starts at `/auth/login`, goes to the
 * platform's consent page, and comes back to `/auth/callback`, where the code is exchanged with the secret and the
 * fan's tokens stay in the server-side session. The popup always ends on a page that says what happened and, when
 * it knows the card's origin, posts a `SignInResultMessage` to exactly that origin.
 */
export function signInRoutes(runtime: ProxyRuntime): Hono {
  const app = new Hono();
  const { config, sessions, logger } = runtime;

  const endPage = (
    c: Context,
    status: 200 | 400 | 429 | 502,
    result: SignInResultMessage,
    origin?: string,
  ) => {
    const page = renderCallbackPage(result, origin);
    for (const [name, value] of Object.entries(page.headers)) c.header(name, value);
    return c.body(page.html, status);
  };
  const failure = (error: string, message: string): SignInResultMessage => ({
    type: 'fan-polls:sign-in',
    ok: false,
    error,
    message,
  });
  const endSessionDeps = {
    sessions,
    logger,
    revoke: (token: string) => runtime.platform.oauth.revoke(token),
  };
  const currentSession = async (c: Context): Promise<Session | undefined> =>
    sessions.find(await readSessionId(c, config.sessionSecret));

  /** The sign-in limit per client address: a 429 page (with `Retry-After`) when spent, else undefined. */
  const rateLimited = async (c: Context, origin: string | undefined): Promise<Response | undefined> => {
    const retryAfter = await runtime.signInLimiter.take(runtime.clientAddress(c));
    if (retryAfter === undefined) return undefined;
    c.header('Retry-After', String(retryAfter));
    return endPage(
      c,
      429,
      failure('rate_limited', 'Too many sign-in attempts. Wait a minute and try again.'),
      origin,
    );
  };

  app.get('/login', async (c) => {
    const query = new URL(c.req.url).searchParams;
    const origin = query.get('origin') ?? '';
    // Only an exact, configured origin (or the proxy's own pages): anything else gets a page and no message, never a
    // redirect or a post.
    if (!runtime.isAllowedPage(origin)) {
      logger.log('info', 'sign_in_refused', { reason: 'origin_not_allowed' });
      return endPage(c, 400, failure('origin_not_allowed', 'This page may not start a Fan Polls sign-in.'));
    }
    const limited = await rateLimited(c, origin);
    if (limited) return limited;
    // No session yet for a browser that has none: the pending entry alone holds this sign-in, bound to the browser
    // by a fresh id in its cookie. Sessions are made by callbacks that succeed, never by starts.
    const browserId = (await readSessionId(c, config.sessionSecret)) ?? randomId();
    const request = await createAuthorizationRequest({
      authUrl: config.platformAuthUrl,
      clientId: config.clientId,
      partnerTag: config.partnerTag,
      redirectUri: config.callbackUrl,
      // The tracking parameters as given; the authorize request keeps the values their one rule allows.
      tracking: (name) => query.get(name),
    });
    await sessions.addPending({
      state: request.state,
      codeVerifier: request.codeVerifier,
      openerOrigin: origin,
      browserId,
      handoff: query.get('handoff') === '1',
    });
    await writeSessionCookie(c, config.sessionSecret, browserId, runtime.sessionCookieMaxAge);
    c.header('Cache-Control', 'no-store');
    c.header('Referrer-Policy', 'no-referrer');
    return c.redirect(request.url.href, 302);
  });

  app.get('/callback', async (c) => {
    const url = new URL(c.req.url);
    const browserId = await readSessionId(c, config.sessionSecret);
    const session = await sessions.find(browserId);
    const pending = await sessions.takePending(url.searchParams.get('state') ?? '');
    const origin =
      pending?.openerOrigin ?? (await sessions.pendingOriginOf(browserId)) ?? session?.signInOrigin;
    const limited = await rateLimited(c, origin);
    if (limited) return limited;
    if (pending === undefined || browserId === undefined || pending.browserId !== browserId) {
      // No pending sign-in for this state in this browser: expired, used already, or started elsewhere (login CSRF).
      logger.log('info', 'sign_in_failed', {
        reason: pending === undefined ? 'unknown_state' : 'other_browser',
      });
      return endPage(
        c,
        400,
        failure('sign_in_expired', 'This sign-in has expired or was started elsewhere.'),
        origin,
      );
    }
    try {
      const { code } = validateCallback(
        { authUrl: config.platformAuthUrl, clientId: config.clientId },
        url.searchParams,
        pending.state,
      );
      const tokens = await runtime.platform.oauth.exchangeCode({
        code,
        codeVerifier: pending.codeVerifier,
        redirectUri: config.callbackUrl,
      });
      const keeper = userTokenKeeper((refreshToken) => runtime.platform.oauth.refresh(refreshToken), {
        initial: tokens,
        now: runtime.now,
      });
      const { userId } = await runtime.platform.userClient(keeper).getCurrentUser();
      const signedIn = await sessions.create({
        userId,
        tokens: keeper.tokens ?? tokens,
        signInOrigin: pending.openerOrigin,
      });
      await writeSessionCookie(c, config.sessionSecret, signedIn.id, runtime.sessionCookieMaxAge);
      // Signed in again over a signed-in session (maybe as another fan): the old pair ends, and its copies with it.
      if (session !== undefined) await endSession(endSessionDeps, session, tokens);
      logger.log('info', 'signed_in');
      // This cookie lands in the proxy site's partition; a card on another site redeems the code for its own. Only
      // when the card asked: a card that does not know the field keeps getting the message it knows.
      const result: SignInResultMessage = pending.handoff
        ? {
            type: 'fan-polls:sign-in',
            ok: true,
            userId,
            handoff: await sessions.addHandoff(signedIn.id, pending.openerOrigin),
          }
        : { type: 'fan-polls:sign-in', ok: true, userId };
      return endPage(c, 200, result, pending.openerOrigin);
    } catch (error) {
      const { status, result } = callbackFailure(error);
      logger.log('info', 'sign_in_failed', {
        reason: result.ok ? undefined : result.error,
        platformError: error instanceof PlatformError ? error.code : undefined,
        oauthError: error instanceof PlatformError ? error.oauthError : undefined,
      });
      return endPage(c, status, result, pending.openerOrigin);
    }
  });

  app.use('/session', corsFromAllowlist(runtime.isAllowedPage, { credentials: true, methods: ['GET'] }));
  app.get('/session', async (c) => {
    const origin = c.req.header('Origin');
    if (origin !== undefined && !runtime.isAllowedPage(origin)) {
      throw new ProxyError('origin_not_allowed', 'This origin may not read the session.');
    }
    const session = await currentSession(c);
    c.header('Cache-Control', 'no-store');
    const status: SessionStatus =
      session?.tokens.tokens !== undefined ? { signedIn: true, userId: session.userId } : { signedIn: false };
    return c.json(status);
  });

  app.use('/handoff', corsFromAllowlist(runtime.isAllowedPage, { credentials: true, methods: ['POST'] }));
  app.post('/handoff', requireAllowedPage(runtime.isAllowedPage), async (c) => {
    c.header('Cache-Control', 'no-store');
    const origin = c.req.header('Origin');
    // A POST always carries Origin; the code is bound to one, so "same origin, no header" is not enough here.
    if (origin === undefined) {
      throw new ProxyError('origin_not_allowed', 'A session handoff must come from the page that signed in.');
    }
    const body = await readJsonObject(c.req.raw);
    const handoff = await sessions.takeHandoff(requiredString(body, 'handoff', 128));
    if (handoff === undefined) {
      logger.log('info', 'handoff_refused', { reason: 'unknown_code' });
      throw new ProxyError('invalid_handoff', 'This sign-in can no longer be used here. Sign in again.');
    }
    if (handoff.origin !== origin) {
      // Another allowed page holds this page's code: it is spent, and neither gets the session.
      logger.log('warn', 'handoff_refused', { reason: 'other_origin' });
      throw new ProxyError('origin_not_allowed', 'This sign-in was started by another page.');
    }
    const session = await sessions.find(handoff.sessionId);
    if (session?.tokens.tokens === undefined) {
      logger.log('info', 'handoff_refused', { reason: 'signed_out' });
      throw new ProxyError('invalid_handoff', 'This sign-in has ended. Sign in again.');
    }
    const copy = await sessions.clone(session);
    await writeSessionCookie(c, config.sessionSecret, copy.id, runtime.sessionCookieMaxAge);
    logger.log('info', 'session_handed_off');
    const status: SessionStatus = { signedIn: true, userId: session.userId };
    return c.json(status);
  });

  app.use('/logout', corsFromAllowlist(runtime.isAllowedPage, { credentials: true, methods: ['POST'] }));
  app.post('/logout', requireAllowedPage(runtime.isAllowedPage), async (c) => {
    const session = await currentSession(c);
    clearSessionCookie(c);
    c.header('Cache-Control', 'no-store');
    if (session === undefined) return c.body(null, 204);
    await endSession(endSessionDeps, session);
    logger.log('info', 'signed_out');
    return c.body(null, 204);
  });

  return app;
}

function callbackFailure(error: unknown): { status: 200 | 400 | 429 | 502; result: SignInResultMessage } {
  const fail = (status: 200 | 400 | 429 | 502, code: string, message: string) => ({
    status,
    result: { type: 'fan-polls:sign-in', ok: false, error: code, message } as const,
  });
  if (error instanceof PlatformError) {
    switch (error.code) {
      case 'access_denied':
        return fail(200, 'access_denied', 'You did not allow Fan Polls to use your account.');
      case 'invalid_input':
        return fail(
          400,
          'invalid_request',
          'The platform sent back an answer that does not match this sign-in.',
        );
      case 'oauth_error':
        return fail(502, 'sign_in_failed', 'The platform refused the sign-in.');
      case 'throttled':
        return fail(429, 'rate_limited', 'The platform is busy. Try again in a minute.');
      default:
        return fail(502, 'platform_unavailable', 'The platform did not answer. Try again shortly.');
    }
  }
  return fail(502, 'sign_in_failed', 'Sign-in failed. Try again shortly.');
}
