import type { Context, MiddlewareHandler } from 'hono';
import { deleteCookie, getCookie, getSignedCookie, setSignedCookie } from 'hono/cookie';
import type { Session, SessionStore } from './state/session-store.ts';

/**
 * The session cookie: an opaque id signed with the session secret (HMAC-SHA-256). `__Host-` pins it to this host
 * and path `/`; HttpOnly keeps it from scripts; Secure + SameSite=None lets a card in a third-party iframe send it;
 * Partitioned (CHIPS) keeps it in the embedding site's partition, so it works where third-party cookies are blocked.
 * Chromium and Firefox treat http://127.0.0.1 and http://localhost as potentially trustworthy, so Secure cookies
 * also work on the loopback sandbox; WebKit does not and drops them.
 */
export const sessionCookieName = '__Host-fan-polls-session';

/**
 * Only when the proxy itself is on plain http (the loopback sandbox; production requires an https public URL): the
 * same signed id in a cookie WebKit keeps on http, HttpOnly and SameSite=Lax. Written only in answers a browser keeps
 * it from (`laxCookieKept`), and sent by the sign-in's navigations and by a card on the proxy's own site, never by a
 * card on another site (where the Secure cookie, the handoff and the session frame do the work).
 */
export const plainHttpSessionCookieName = 'fan-polls-session-http';

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
  /** The request's verified session id (`sessionIdReader`). */
  readonly readId: SessionIdReader;
  readonly sessions: Pick<SessionStore, 'find'>;
  /** The cookie's Max-Age, seconds. */
  readonly maxAgeSeconds: number;
  /** The proxy is served over plain http (the loopback sandbox): also the Lax cookie WebKit keeps there. */
  readonly plainHttp: boolean;
}

/** Reads the signed cookie once and sets `c.var.session`: the one place the sign-in routes read or write it. */
export function sessionCookie(options: SessionCookieOptions): MiddlewareHandler<SessionEnv> {
  return async (c, next) => {
    const id = await options.readId(c);
    let found: Promise<Session | undefined> | undefined;
    c.set('session', {
      id,
      find: () => (found ??= options.sessions.find(id)),
      write: (sessionId) => writeSessionCookie(c, sessionId, options),
      clear: () => {
        clearSessionCookie(c, options.plainHttp);
      },
    });
    await next();
  };
}

/** The session id in a request's signed cookie, or undefined without a valid one. */
export type SessionIdReader = (c: Context) => Promise<string | undefined>;

/** Signed values verified so far, kept at most (a fan's every request after the first skips the HMAC). */
const verifiedValuesKept = 10_000;

/**
 * Reads the signed session cookie, checking its HMAC once per cookie value rather than on every request: a value
 * that verified once verifies again (same secret, same bytes), so the id is remembered under the whole signed
 * value. Only values that verified are kept (a forged one costs its sender an HMAC each time, as before), at most
 * `verifiedValuesKept`, the oldest dropped first. A remembered id is only an id: the session store still decides
 * whether it names a live session.
 */
export function sessionIdReader(secret: string, plainHttp: boolean): SessionIdReader {
  const verified = new Map<string, string>();
  const read = async (c: Context, name: string): Promise<string | undefined> => {
    const signed = getCookie(c, name);
    if (signed === undefined || signed === '') return undefined;
    const known = verified.get(signed);
    if (known !== undefined) return known;
    const value = await getSignedCookie(c, secret, name);
    if (typeof value !== 'string' || value === '') return undefined;
    if (verified.size >= verifiedValuesKept) verified.delete(verified.keys().next().value ?? '');
    verified.set(signed, value);
    return value;
  };
  return async (c) =>
    (await read(c, sessionCookieName)) ?? (plainHttp ? await read(c, plainHttpSessionCookieName) : undefined);
}

async function writeSessionCookie(
  c: Context,
  sessionId: string,
  options: SessionCookieOptions,
): Promise<void> {
  const { secret, maxAgeSeconds, plainHttp } = options;
  await setSignedCookie(c, sessionCookieName, sessionId, secret, {
    path: '/',
    httpOnly: true,
    secure: true,
    sameSite: 'None',
    partitioned: true,
    maxAge: maxAgeSeconds,
  });
  if (plainHttp && laxCookieKept(c)) {
    await setSignedCookie(c, plainHttpSessionCookieName, sessionId, secret, {
      path: '/',
      httpOnly: true,
      sameSite: 'Lax',
      maxAge: maxAgeSeconds,
    });
  }
}

/**
 * Whether the answer to this request may carry the plain-http Lax cookie: browsers keep it from top-level navigations
 * (the sign-in's pop-up or redirect, the callback) and from fetches of a page on the proxy's site (a same-site page
 * redeeming its sign-in). Every engine refuses it, and Firefox logs an error, in answers to fetches from a page of
 * another site (`Sec-Fetch-Site: cross-site`) and from the proxy's own frames on such a page; those frames' fetches are
 * `same-origin`, and they read the cookie the sign-in's navigation wrote. Without the header (an older engine), it is
 * written.
 */
function laxCookieKept(c: Context): boolean {
  if (c.req.header('Sec-Fetch-Mode') === 'navigate') return true;
  const site = c.req.header('Sec-Fetch-Site');
  return site !== 'cross-site' && site !== 'same-origin';
}

function clearSessionCookie(c: Context, plainHttp: boolean): void {
  deleteCookie(c, sessionCookieName, {
    path: '/',
    secure: true,
    httpOnly: true,
    sameSite: 'None',
    partitioned: true,
  });
  if (plainHttp && laxCookieKept(c))
    deleteCookie(c, plainHttpSessionCookieName, { path: '/', httpOnly: true, sameSite: 'Lax' });
}
