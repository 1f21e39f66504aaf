import type { Context, MiddlewareHandler } from 'hono';
import { deleteCookie, getSignedCookie, setSignedCookie } from 'hono/cookie';
import type { Session, SessionStore } from './state/session-store.ts';

/**
 * The session cookie: an opaque id signed with the session secret (HMAC-SHA-256). `__Host-` pins it to this host
 * and path `/`; HttpOnly keeps it from scripts; Secure + SameSite=None lets a card in a third-party iframe send it;
 * Partitioned (CHIPS) keeps it in the embedding site's partition, so it works where third-party cookies are blocked.
 * Chromium treats http://127.0.0.1 and http://localhost as potentially trustworthy, so Secure cookies also work on
 * the loopback sandbox.
 */
export const sessionCookieName = '__Host-fan-polls-session';

/** The request's session cookie as the sign-in routes see it (`c.var.session`). */
export interface SessionCookie {
  /** The id in the signed cookie (a session's, or a browser's with a sign-in pending); undefined without one. */
  readonly id: string | undefined;
  /** The session the cookie names, looked up once per request. */
  find(): Promise<Session | undefined>;
  /** Sets the cookie to this id, for the session's idle lifetime. */
  write(id: string): Promise<void>;
  clear(): void;
}

/** Hono's environment of the routes behind `sessionCookie()`. */
export interface SessionEnv {
  Variables: { session: SessionCookie };
}

export interface SessionCookieOptions {
  readonly secret: string;
  readonly sessions: Pick<SessionStore, 'find'>;
  /** The cookie's Max-Age, seconds. */
  readonly maxAgeSeconds: number;
}

/** Reads the signed cookie once and sets `c.var.session`: the one place the sign-in routes read or write it. */
export function sessionCookie(options: SessionCookieOptions): MiddlewareHandler<SessionEnv> {
  return async (c, next) => {
    const id = await readSessionId(c, options.secret);
    let found: Promise<Session | undefined> | undefined;
    c.set('session', {
      id,
      find: () => (found ??= options.sessions.find(id)),
      write: (sessionId) => writeSessionCookie(c, options.secret, sessionId, options.maxAgeSeconds),
      clear: () => {
        clearSessionCookie(c);
      },
    });
    await next();
  };
}

export async function readSessionId(c: Context, secret: string): Promise<string | undefined> {
  const value = await getSignedCookie(c, secret, sessionCookieName);
  return typeof value === 'string' && value !== '' ? value : undefined;
}

async function writeSessionCookie(
  c: Context,
  secret: string,
  sessionId: string,
  maxAgeSeconds: number,
): Promise<void> {
  await setSignedCookie(c, sessionCookieName, sessionId, secret, {
    path: '/',
    httpOnly: true,
    secure: true,
    sameSite: 'None',
    partitioned: true,
    maxAge: maxAgeSeconds,
  });
}

function clearSessionCookie(c: Context): void {
  deleteCookie(c, sessionCookieName, {
    path: '/',
    secure: true,
    httpOnly: true,
    sameSite: 'None',
    partitioned: true,
  });
}
