/**
 * The partner proxy's HTTP surface, shared by the proxy (which serves it), the widget and the extension (which call
 * it). Changing a path or a shape here changes it for all three at once.
 */

/**
 * GET with the spec's poll filters (`ids[]`, `partnerIds[]`, ...) -> `{ data: Poll[] }`. Public, cached. A constant of
 * its own as well as `proxyRoutes.polls`, so that the widget's first paint carries this path and not the whole table.
 */
export const proxyPollsRoute = '/api/polls';

/**
 * Where each of the proxy's route groups is mounted (one Hono app each). Every path of `proxyRoutes` lies under one
 * of them; the proxy registers each route relative to its group, so a path is written here once.
 */
export const proxyRouteGroups = {
  /** Public poll reads. */
  polls: proxyPollsRoute,
  /** The fan's routes over the session. */
  fan: '/api/user',
  /** Sign-in for cards without the extension, and the session it makes. */
  signIn: '/auth',
  /** Token mediation for the extension. */
  extension: '/extension',
  /** The built widget; `/widget/v<version>/...` is the pinned form a snippet uses. */
  widget: '/widget',
  /** The embed configurator's page (see `configurator-contract.ts`). */
  configurator: '/configurator',
} as const;

const groups = proxyRouteGroups;

/** The routes with a parameter, as the proxy's router matches them; `proxyRoutes` fills `:pollId` in. */
export const proxyRoutePatterns = {
  poll: `${proxyPollsRoute}/:pollId`,
  userPoll: `${groups.fan}/polls/:pollId`,
  vote: `${groups.fan}/polls/:pollId/vote`,
} as const;

function withPollId(pattern: string, pollId: string): string {
  return pattern.replace(':pollId', () => encodeURIComponent(pollId));
}

/** Routes of the proxy, relative to its public URL. */
export const proxyRoutes = {
  /** The poll list (`proxyPollsRoute`). */
  polls: proxyPollsRoute,
  /** GET -> `{ data: Poll }`. Public, cached. */
  poll: (pollId: string) => withPollId(proxyRoutePatterns.poll, pollId),

  /**
   * GET, opened in a popup by a card: `?origin=<opener origin>&referrer=&campaign=&param1=&param2=&param3=`, plus
   * `&handoff=1` when the card wants a `handoff` code in the success message (see `sessionHandoff`).
   * Redirects to the platform's authorize page; the callback ends by posting a `SignInResultMessage` to `origin`.
   * Without a pop-up (the page itself navigates here): `&return=<page URL>`, an allowed page on exactly `origin`, and
   * for a banner `&frame=<its frame's origin>`; the callback then ends on a page that sends the browser on to exactly
   * that URL with the handoff code (or the error) in its fragment (`sign-in-return.ts`). A `return` the proxy may not
   * send the fan to ends on the proxy's own page.
   */
  signIn: `${groups.signIn}/login`,
  /** GET, the platform redirects the fan here with `code` and `state` (or `error`). */
  signInCallback: `${groups.signIn}/callback`,
  /** GET -> `SessionStatus`. Needs the session cookie (credentials: 'include'). */
  session: `${groups.signIn}/session`,
  /**
   * POST `SessionHandoffRequest` with credentials, an allowed Origin (the one that started the sign-in) and the CSRF
   * header -> `SessionStatus`, setting the session cookie in the caller's cookie partition. For a card whose top-level
   * page is on another site than the sign-in popup (the proxy's own site). The code is single-use and short-lived.
   */
  sessionHandoff: `${groups.signIn}/handoff`,
  /** POST -> 204. Revokes the fan's tokens upstream and clears the session. CSRF header required. */
  signOut: `${groups.signIn}/logout`,

  /** Fan routes over the session: each needs an allowed Origin, the cookie and the CSRF header. */
  userPolls: `${groups.fan}/polls`,
  userPoll: (pollId: string) => withPollId(proxyRoutePatterns.userPoll, pollId),
  userPollHistory: `${groups.fan}/polls-history`,
  currentUser: `${groups.fan}/me`,
  /** POST `{ answerId }` -> 201 with no body. Never retried by the proxy. */
  vote: (pollId: string) => withPollId(proxyRoutePatterns.vote, pollId),

  /** Token mediation for the extension: POST JSON, answers `ExtensionTokenSet`. Extension origin only. */
  extensionToken: `${groups.extension}/token`,
  extensionRefresh: `${groups.extension}/refresh`,
  /** POST `{ token }` -> 204. */
  extensionRevoke: `${groups.extension}/revoke`,
} as const;

/**
 * `route` as the group mounted at `group` registers it: `/auth/login` in `/auth` is `/login`, the group's own path
 * is `/`. Throws (when the proxy starts) for a route outside its group.
 */
export function routeInGroup(group: string, route: string): string {
  if (route === group) return '/';
  if (!route.startsWith(`${group}/`)) throw new Error(`The route ${route} is not under ${group}.`);
  return route.slice(group.length);
}

/** Every state-changing or fan-data request from a page carries this header with value `1` (CSRF defence). */
export const csrfHeaderName = 'X-Fan-Polls-Request';
export const csrfHeaderValue = '1';

/**
 * Why the platform refused a vote, as a stable reason a card can show. `vote_refused` errors of the proxy and
 * `refused` errors of the extension's bridge carry one when the platform's answer says which:
 * - `not_holder`: the fan holds none of this club's fan tokens (platform 403);
 * - `already_voted`: the fan has a vote in this poll already (409);
 * - `poll_not_open`: the poll is not open yet, closed or cancelled (422);
 * - `unknown_answer`: the answer is not one of the poll's (400);
 * - `unknown_poll`: no such poll (404).
 * A card must treat an absent or unknown reason as a plain refusal.
 */
export const voteRefusalReasons = [
  'not_holder',
  'already_voted',
  'poll_not_open',
  'unknown_answer',
  'unknown_poll',
] as const;

export type VoteRefusalReason = (typeof voteRefusalReasons)[number];

export function isVoteRefusalReason(value: unknown): value is VoteRefusalReason {
  return typeof value === 'string' && (voteRefusalReasons as readonly string[]).includes(value);
}

/** The one error body of the proxy. `code` is stable; `message` is for people. */
export interface ProxyErrorBody {
  readonly error: {
    readonly code: string;
    readonly message: string;
    readonly retryAfterSeconds?: number;
    /** With `code: 'vote_refused'`, when the platform said why. */
    readonly reason?: VoteRefusalReason;
  };
}

export interface SessionStatus {
  readonly signedIn: boolean;
  readonly userId?: string;
}

/** Body of `POST sessionHandoff`: the code of a `SignInResultMessage`. */
export interface SessionHandoffRequest {
  readonly handoff: string;
}

/** Body of `POST extensionToken`. */
export interface ExtensionCodeExchange {
  readonly code: string;
  readonly codeVerifier: string;
  readonly redirectUri: string;
}

/** Answer of the token-mediation routes: the fan's tokens, for the extension's vault only. */
export interface ExtensionTokenSet {
  readonly accessToken: string;
  readonly refreshToken?: string;
  /** Seconds; absent when the platform did not say. */
  readonly expiresIn?: number;
}

/** What the sign-in popup posts to its opener (to the exact origin the card gave) before it closes. */
export type SignInResultMessage =
  | {
      readonly type: 'fan-polls:sign-in';
      readonly ok: true;
      readonly userId: string;
      /**
       * Only when the sign-in was started with `handoff=1`. A single-use code, good for about 60 s, that `POST sessionHandoff` from the card's page (the same origin this
       * message was posted to) turns into a session cookie in that page's cookie partition. Not a token: it opens
       * nothing by itself without the card's Origin and the CSRF header, and it is gone once used.
       */
      readonly handoff?: string;
    }
  | {
      readonly type: 'fan-polls:sign-in';
      readonly ok: false;
      readonly error: string;
      readonly message: string;
    };
