import { Hono, type MiddlewareHandler } from 'hono';
import {
  proxyRouteGroups,
  proxyRoutes,
  routeInGroup,
  type SessionStatus,
} from '../contracts/proxy-contract.ts';
import {
  frameChallengeOf,
  frameKeyPattern,
  frameSessionPath,
  type FrameSessionGrant,
} from '../contracts/frame-session-contract.ts';
import { corsFromAllowlist } from './cors.ts';
import { endSession, endSessionDepsOf } from './end-session.ts';
import { ProxyError } from './errors.ts';
import { readJsonObject, requireAllowedPage, requiredString } from './request-guards.ts';
import type { ProxyRuntime } from './runtime.ts';
import type { SessionEnv } from './session-cookie.ts';
import type { PendingHandoff, Session } from './state/session-store.ts';

/**
 * The session a page reads (`GET /auth/session`), redeems from a handoff code (`POST /auth/handoff`, or
 * `POST /auth/frame-session` for a session frame's memory) or ends (`POST /auth/logout`): pages call them with `fetch` and credentials, so they share one CORS policy (the allowed
 * pages, with credentials). The two POSTs need an allowed Origin and the CSRF header.
 */
export function sessionRoutes(runtime: ProxyRuntime): Hono<SessionEnv> {
  const app = new Hono<SessionEnv>();
  const { sessions, logger } = runtime;
  const ownOrigin = new URL(runtime.config.publicUrl).origin;
  const inGroup = (route: string) => routeInGroup(proxyRouteGroups.signIn, route);
  const paths = {
    status: inGroup(proxyRoutes.session),
    handoff: inGroup(proxyRoutes.sessionHandoff),
    signOut: inGroup(proxyRoutes.signOut),
    frameSession: inGroup(frameSessionPath),
  };
  // One policy for the group; registered per path, as the group's paths share no prefix of their own under `/auth`.
  const cors = corsFromAllowlist(runtime.isAllowedPage, { credentials: true, methods: ['GET', 'POST'] });
  const noStore: MiddlewareHandler = async (c, next) => {
    c.header('Cache-Control', 'no-store');
    await next();
  };
  for (const path of Object.values(paths)) app.use(path, cors, noStore);
  const fromAllowedPage = requireAllowedPage(runtime.isAllowedPage);
  app.use(paths.handoff, fromAllowedPage);
  app.use(paths.signOut, fromAllowedPage);
  app.use(paths.frameSession, fromAllowedPage);

  /**
   * Spends the handoff `code`, lets `bound` refuse who redeems it (it throws), and gives the session it hands on with
   * a fresh copy of it.
   */
  async function handOn(
    code: string,
    bound: (handoff: PendingHandoff) => void | Promise<void>,
  ): Promise<{ session: Session; copy: Session }> {
    const handoff = await sessions.takeHandoff(code);
    if (handoff === undefined) {
      logger.log('info', 'handoff_refused', { reason: 'unknown_code' });
      throw new ProxyError('invalid_handoff', 'This sign-in can no longer be used here. Sign in again.');
    }
    await bound(handoff);
    const session = await sessions.find(handoff.sessionId);
    if (session?.tokens.tokens === undefined) {
      logger.log('info', 'handoff_refused', { reason: 'signed_out' });
      throw new ProxyError('invalid_handoff', 'This sign-in has ended. Sign in again.');
    }
    return { session, copy: await sessions.clone(session) };
  }

  app.get(paths.status, async (c) => {
    const origin = c.req.header('Origin');
    if (origin !== undefined && !runtime.isAllowedPage(origin)) {
      throw new ProxyError('origin_not_allowed', 'This origin may not read the session.');
    }
    const session = await c.var.session.find();
    const status: SessionStatus =
      session?.tokens.tokens !== undefined ? { signedIn: true, userId: session.userId } : { signedIn: false };
    return c.json(status);
  });

  app.post(paths.handoff, async (c) => {
    const origin = c.req.header('Origin');
    // A POST always carries Origin; the code is bound to one, so "same origin, no header" is not enough here.
    if (origin === undefined) {
      throw new ProxyError('origin_not_allowed', 'A session handoff must come from the page that signed in.');
    }
    const body = await readJsonObject(c.req.raw);
    const { session, copy } = await handOn(requiredString(body, 'handoff', 128), (handoff) => {
      if (handoff.challenge !== undefined) {
        // Bound to a session frame: only its verifier opens it, and never for a cookie a page script could ride.
        logger.log('warn', 'handoff_refused', { reason: 'frame_bound' });
        throw new ProxyError('invalid_handoff', 'This sign-in was started for another frame.');
      }
      if (handoff.origin !== origin) {
        // Another allowed page holds this page's code: it is spent, and neither gets the session.
        logger.log('warn', 'handoff_refused', { reason: 'other_origin' });
        throw new ProxyError('origin_not_allowed', 'This sign-in was started by another page.');
      }
    });
    await c.var.session.write(copy.id);
    logger.log('info', 'session_handed_off');
    const status: SessionStatus = { signedIn: true, userId: session.userId };
    return c.json(status);
  });

  app.post(paths.frameSession, async (c) => {
    // Only the proxy's own frame page redeems a frame's code: the answer holds its credential.
    if (c.req.header('Origin') !== ownOrigin) {
      throw new ProxyError('origin_not_allowed', 'A frame session is redeemed by the proxy’s own page only.');
    }
    const body = await readJsonObject(c.req.raw);
    const code = requiredString(body, 'handoff', 128);
    const verifier = requiredString(body, 'verifier', 64);
    // A code tried with a wrong verifier is spent all the same, so it cannot be guessed at.
    const { session, copy } = await handOn(code, async (handoff) => {
      if (
        handoff.challenge === undefined ||
        !frameKeyPattern.test(verifier) ||
        (await frameChallengeOf(verifier)) !== handoff.challenge
      ) {
        logger.log('warn', 'handoff_refused', { reason: 'wrong_verifier' });
        throw new ProxyError('invalid_handoff', 'This sign-in was started for another frame.');
      }
    });
    logger.log('info', 'session_handed_to_frame');
    const grant: FrameSessionGrant = {
      signedIn: true,
      userId: session.userId,
      credential: await runtime.frameCredentials.sign(copy.id),
    };
    return c.json(grant);
  });

  app.post(paths.signOut, async (c) => {
    const session = await c.var.session.find();
    c.var.session.clear();
    if (session === undefined) return c.body(null, 204);
    await endSession(endSessionDepsOf(runtime), session);
    logger.log('info', 'signed_out');
    return c.body(null, 204);
  });
  return app;
}
