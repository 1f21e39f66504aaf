/**
 * The proxy's routes that pages call, as plain constants, one export each: a bundle carries only the paths it uses
 * (the widget's entry holds four, not the whole route table). `proxyRoutes` in `proxy-contract.ts` builds the same
 * paths from the proxy's route groups for the proxy and the extension; `proxy-paths.test.ts` keeps the two equal.
 */

/** GET with the spec's poll filters -> `{ data: Poll[] }`. Public, cached. */
export const pollsPath = '/api/polls';
/** GET, opened in the sign-in popup (see `proxyRoutes.signIn`). */
export const signInPath = '/auth/login';
/** GET -> `SessionStatus`, with the session cookie. */
export const sessionPath = '/auth/session';
/** POST `SessionHandoffRequest` -> `SessionStatus` (see `proxyRoutes.sessionHandoff`). */
export const sessionHandoffPath = '/auth/handoff';
/** POST -> 204: revokes the fan's tokens and clears the session. */
export const signOutPath = '/auth/logout';

const userPollsPath = '/api/user/polls/';

/** GET -> `{ data: Poll }` with the fan's `voteStatus` per answer. */
export const userPollPath = (pollId: string): string => userPollsPath + encodeURIComponent(pollId);
/** POST `{ answerId }` -> 201 with no body. */
export const votePath = (pollId: string): string => `${userPollPath(pollId)}/vote`;
