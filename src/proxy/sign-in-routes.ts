import { Hono } from 'hono';
import {
  proxyRouteGroups,
  proxyRoutes,
  routeInGroup,
  type SignInResultMessage,
} from '../contracts/proxy-contract.ts';
import { frameChallengeParam, frameKeyPattern } from '../contracts/frame-session-contract.ts';
import type { SignInReturn } from '../contracts/sign-in-return.ts';
import { PlatformError } from '../platform/errors.ts';
import { createAuthorizationRequest, validateCallback } from '../platform/oauth.ts';
import { userTokenKeeper } from '../platform/token-keeper.ts';
import { endSession, endSessionDepsOf } from './end-session.ts';
import type { ProxyRuntime } from './runtime.ts';
import { sessionCookie, type SessionEnv } from './session-cookie.ts';
import { sessionRoutes } from './session-routes.ts';
import {
  callbackFailure,
  signInEndPage,
  signInFailure,
  signInRateLimited,
  signInReturnPage,
  signInUnavailablePage,
  type SignInPageStatus,
} from './sign-in-page.ts';
import { ProxyError } from './errors.ts';
import { readWayBack, returnKeyOf } from './return-url.ts';
import { signInCountedUnder } from './analytics/proxy-analytics.ts';
import { randomId } from './state/session-store.ts';

/** A sign-in route's path inside the `/auth` group. */
const signInPath = (route: string): string => routeInGroup(proxyRouteGroups.signIn, route);

/**
 * Sign-in for cards without the extension (a backend-for-frontend): the popup starts at `/auth/login`, goes to the
 * platform's consent page, and comes back to `/auth/callback`, where the code is exchanged with the secret and the
 * fan's tokens stay in the server-side session. The popup always ends on a page that says what happened and, when
 * it knows the card's origin, posts a `SignInResultMessage` to exactly that origin. Without a pop-up (a `return`
 * address, checked by `return-url.ts`), the same trip starts from the top-level page and the callback sends the fan
 * back to that page (`return-page.ts`), the handoff code or the error in its fragment. Three groups behind one
 * session middleware (`c.var.session`, the signed cookie): login, callback, and the session a page reads, hands off or
 * ends.
 */
export function signInRoutes(runtime: ProxyRuntime): Hono<SessionEnv> {
  const app = new Hono<SessionEnv>();
  app.use(
    '*',
    sessionCookie({
      secret: runtime.config.sessionSecret,
      readId: runtime.readSessionId,
      sessions: runtime.sessions,
      maxAgeSeconds: runtime.sessionCookieMaxAge,
      plainHttp: runtime.servedOverPlainHttp,
    }),
  );
  // The popup's two pages end on a page even when the shared state is down; the session routes answer JSON.
  app.onError((error, c) => {
    const url = new URL(c.req.url);
    const path = url.pathname;
    const popupPage = path === proxyRoutes.signIn || path === proxyRoutes.signInCallback;
    const origin = url.searchParams.get('origin') ?? undefined;
    const page =
      popupPage && error instanceof ProxyError
        ? signInUnavailablePage(
            c,
            error,
            origin !== undefined && runtime.isAllowedPage(origin) ? origin : undefined,
          )
        : undefined;
    if (page === undefined) throw error;
    runtime.logger.log('warn', 'sign_in_unavailable', {
      path,
      code: error instanceof ProxyError ? error.code : '',
    });
    return page;
  });
  app.route('/', loginRoutes(runtime));
  app.route('/', callbackRoutes(runtime));
  app.route('/', sessionRoutes(runtime));
  return app;
}

/**
 * The sign-in's first stop: checks the card's origin, its way back when it comes without a pop-up, and the tracking,
 * then redirects to the platform's consent page.
 */
function loginRoutes(runtime: ProxyRuntime): Hono<SessionEnv> {
  const app = new Hono<SessionEnv>();
  const { config, logger, sessions } = runtime;
  app.get(signInPath(proxyRoutes.signIn), async (c) => {
    const query = new URL(c.req.url).searchParams;
    const origin = query.get('origin') ?? '';
    // Only an exact, configured origin (or the proxy's own pages): anything else gets a page and no message, never a
    // redirect or a post.
    if (!runtime.isAllowedPage(origin)) {
      logger.log('info', 'sign_in_refused', { reason: 'origin_not_allowed' });
      const refused = signInFailure('origin_not_allowed', 'This page may not start a Fan Polls sign-in.');
      return signInEndPage(c, 400, refused);
    }
    const wayBack = readWayBack(query, origin, runtime.isAllowedPage);
    if (wayBack === 'refused') {
      logger.log('info', 'sign_in_refused', { reason: 'return_not_allowed' });
      const refused = signInFailure('return_not_allowed', 'Fan Polls may not send you back to this address.');
      return signInEndPage(c, 400, refused);
    }
    const frameChallenge = frameChallengeOf(query, wayBack !== undefined);
    if (frameChallenge === undefined) {
      logger.log('info', 'sign_in_refused', { reason: 'frame_challenge_malformed' });
      const refused = signInFailure('invalid_request', 'This sign-in was started with a malformed request.');
      return signInEndPage(c, 400, refused);
    }
    const limited = await signInRateLimited(runtime, c, origin);
    if (limited) return limited;
    // No session yet for a browser that has none: the pending entry alone holds this sign-in, bound to the browser
    // by a fresh id in its cookie. Sessions are made by callbacks that succeed, never by starts.
    const browserId = c.var.session.id ?? randomId();
    // What the club's analytics count it under, carried to the callback in the pending entry.
    const counted = signInCountedUnder(query);
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
      // Without a pop-up, the page always redeems a code: its cookie partition is never the callback's.
      handoff: wayBack !== undefined || query.get('handoff') === '1',
      ...wayBack,
      ...frameChallenge,
      ...(runtime.analytics.enabled ? { analytics: counted } : {}),
    });
    runtime.analytics.signInStarted(counted);
    await c.var.session.write(browserId);
    c.header('Cache-Control', 'no-store');
    c.header('Referrer-Policy', 'no-referrer');
    return c.redirect(request.url.href, 302);
  });
  return app;
}

/**
 * The session frame's challenge (`frame-session-contract.ts`), for a pop-up's sign-in with `handoff=1` only: none
 * (`{}`), or undefined for a malformed one or one on a sign-in without a pop-up (whose page cannot keep a frame's
 * memory across the trip).
 */
function frameChallengeOf(
  query: URLSearchParams,
  withoutPopup: boolean,
): { readonly frameChallenge?: string } | undefined {
  const challenge = query.get(frameChallengeParam);
  if (challenge === null) return {};
  return frameKeyPattern.test(challenge) && query.get('handoff') === '1' && !withoutPopup
    ? { frameChallenge: challenge }
    : undefined;
}

/** Where the platform sends the fan back: the pending sign-in of this browser becomes a session. */
function callbackRoutes(runtime: ProxyRuntime): Hono<SessionEnv> {
  const app = new Hono<SessionEnv>();
  const { config, logger, sessions } = runtime;
  app.get(signInPath(proxyRoutes.signInCallback), async (c) => {
    const url = new URL(c.req.url);
    const browserId = c.var.session.id;
    const session = await c.var.session.find();
    const pending = await sessions.takePending(url.searchParams.get('state') ?? '');
    const origin =
      pending?.openerOrigin ?? (await sessions.pendingOriginOf(browserId)) ?? session?.signInOrigin;
    // A sign-in without a pop-up goes back to its page whatever happens, with the error in the fragment.
    const backToPage = (status: SignInPageStatus, result: SignInReturn): Response | undefined =>
      pending?.returnUrl === undefined
        ? undefined
        : signInReturnPage(c, status, pending.returnUrl, returnKeyOf(pending), result);
    const limited = await signInRateLimited(runtime, c, origin);
    if (limited) return backToPage(429, { error: 'rate_limited' }) ?? limited;
    if (pending === undefined || browserId === undefined || pending.browserId !== browserId) {
      // No pending sign-in for this state in this browser: expired, used already, or started elsewhere (login CSRF).
      logger.log('info', 'sign_in_failed', {
        reason: pending === undefined ? 'unknown_state' : 'other_browser',
      });
      const expired = signInFailure('sign_in_expired', 'This sign-in has expired or was started elsewhere.');
      return backToPage(400, { error: 'sign_in_expired' }) ?? signInEndPage(c, 400, expired, origin);
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
      await c.var.session.write(signedIn.id);
      // Signed in again over a signed-in session (maybe as another fan): the old pair ends, and its copies with it.
      if (session !== undefined) await endSession(endSessionDepsOf(runtime), session, tokens);
      logger.log('info', 'signed_in');
      runtime.analytics.signInEnded(pending.analytics, true);
      // Back to the page without a pop-up: the code is bound to the document that redeems it (a banner's frame, or
      // the page itself), and travels in the fragment.
      if (pending.returnUrl !== undefined) {
        const handoff = await sessions.addHandoff(signedIn.id, pending.frameOrigin ?? pending.openerOrigin);
        return signInReturnPage(c, 200, pending.returnUrl, returnKeyOf(pending), { handoff });
      }
      // This cookie lands in the proxy site's partition; a card on another site redeems the code for its own. Only
      // when the card asked: a card that does not know the field keeps getting the message it knows.
      const result: SignInResultMessage = pending.handoff
        ? {
            type: 'fan-polls:sign-in',
            ok: true,
            userId,
            handoff: await sessions.addHandoff(signedIn.id, pending.openerOrigin, pending.frameChallenge),
          }
        : { type: 'fan-polls:sign-in', ok: true, userId };
      return signInEndPage(c, 200, result, pending.openerOrigin);
    } catch (error) {
      const { status, result } = callbackFailure(error);
      runtime.analytics.signInEnded(pending.analytics, false);
      logger.log('info', 'sign_in_failed', {
        reason: result.ok ? undefined : result.error,
        platformError: error instanceof PlatformError ? error.code : undefined,
        oauthError: error instanceof PlatformError ? error.oauthError : undefined,
      });
      return (
        backToPage(status, { error: result.ok ? 'sign_in_failed' : result.error }) ??
        signInEndPage(c, status, result, pending.openerOrigin)
      );
    }
  });
  return app;
}
