import { deadline } from '../platform/deadline.ts';
import { Hono, type Context } from 'hono';
import { PlatformError } from '../platform/errors.ts';
import type { PlatformClient } from '../platform/client.ts';
import { checkUuid, parsePollFilters } from '../platform/query.ts';
import type { TokenKeeper } from '../platform/token-keeper.ts';
import { voteAndConfirm, type VoteOutcome } from '../platform/vote.ts';
import {
  proxyRouteGroups,
  proxyRoutePatterns,
  proxyRoutes,
  routeInGroup,
} from '../contracts/proxy-contract.ts';
import { corsFromAllowlist } from './cors.ts';
import { ProxyError } from './errors.ts';
import { checkedInput, readJsonObject, requireAllowedPage, requiredString } from './request-guards.ts';
import type { ProxyRuntime } from './runtime.ts';
import { readSessionId } from './session-cookie.ts';

/**
 * The fan's own routes over the session: each needs an allowed Origin, the CSRF header and a signed-in session.
 * The fan's token is used here, on the server, and refreshed (with rotation) inside the session when it nears
 * expiry or is refused. The vote is never retried blindly: when its outcome is in doubt the fan's poll is re-read.
 */
export function fanRoutes(runtime: ProxyRuntime): Hono {
  const app = new Hono();
  app.use('*', corsFromAllowlist(runtime.isAllowedPage, { credentials: true, methods: ['GET', 'POST'] }));
  app.use('*', requireAllowedPage(runtime.isAllowedPage));
  app.use('*', async (c, next) => {
    c.header('Cache-Control', 'private, no-store');
    await next();
  });

  const sessionTokens = async (c: Context): Promise<TokenKeeper> => {
    const session = await runtime.sessions.find(await readSessionId(c, runtime.config.sessionSecret));
    if (session?.tokens.tokens === undefined) {
      throw new ProxyError('not_signed_in', 'Sign in to see your polls and vote.');
    }
    return session.tokens;
  };
  const clientFor = async (c: Context): Promise<PlatformClient> =>
    runtime.platform.userClient(await sessionTokens(c));
  const query = (c: Context) => new URL(c.req.url).searchParams;
  const path = (route: string) => routeInGroup(proxyRouteGroups.fan, route);

  app.get(path(proxyRoutes.userPolls), async (c) => {
    const filters = checkedInput(() => parsePollFilters(query(c), 'userPolls'));
    return c.json({ data: await (await clientFor(c)).listUserPolls(filters) });
  });
  app.get(path(proxyRoutes.userPollHistory), async (c) => {
    const filters = checkedInput(() => parsePollFilters(query(c), 'history'));
    return c.json({ data: await (await clientFor(c)).listUserPollHistory(filters) });
  });
  app.get(path(proxyRoutePatterns.userPoll), async (c) => {
    const pollId = checkedInput(() => checkUuid(c.req.param('pollId'), 'pollId'));
    return c.json({ data: await (await clientFor(c)).getUserPoll(pollId) });
  });
  app.get(path(proxyRoutes.currentUser), async (c) =>
    c.json({ data: await (await clientFor(c)).getCurrentUser() }),
  );

  app.post(path(proxyRoutePatterns.vote), async (c) => {
    const pollId = checkedInput(() => checkUuid(c.req.param('pollId'), 'pollId'));
    const body = await readJsonObject(c.req.raw);
    const answerId = checkedInput(() => checkUuid(requiredString(body, 'answerId', 64), 'answerId'));
    const tokens = await sessionTokens(c);
    try {
      const outcome = await voteWithFreshToken(runtime, tokens, pollId, answerId);
      runtime.logger.log('info', 'vote', { outcome: outcome.status });
      return c.body(null, 201);
    } catch (error) {
      if (error instanceof PlatformError && inDoubtCodes.has(error.code)) {
        // The re-read did not show the vote (or failed too): say so plainly; the fan decides whether to try again.
        throw new ProxyError(
          'vote_uncertain',
          'The vote may not have been counted. Check the poll and try again.',
          {
            cause: error,
          },
        );
      }
      throw error;
    }
  });

  return app;
}

const inDoubtCodes = new Set(['timeout', 'network', 'platform_error', 'malformed_response']);

/**
 * Deadlines that nest inside the widget's 10 s request timeout: the vote request gets 5.5 s, and the whole route
 * (a re-read of the fan's poll when the vote's answer is lost included) answers within 8 s, so the card hears an
 * outcome ("counted", "refused" or "check the poll") before it gives up, never a vote it reports failed that counted.
 */
export const voteRequestDeadlineMs = 5500;
export const voteRouteDeadlineMs = 8000;

/**
 * The client never retries a vote. One case is certain, not in doubt: the gateway refused the token (401), so the
 * vote never reached the platform's backend. Then the session's token is refreshed (once, shared) and the vote sent
 * again through `voteAndConfirm`, which settles any later doubt by re-reading the fan's poll. Only the token the vote
 * was sent with counts as refused: another request may have replaced it meanwhile, and the newer one is good.
 */
async function voteWithFreshToken(
  runtime: ProxyRuntime,
  tokens: TokenKeeper,
  pollId: string,
  answerId: string,
): Promise<VoteOutcome> {
  let sentWith: string | undefined;
  const all = deadline(voteRouteDeadlineMs);
  const vote = deadline(voteRequestDeadlineMs, all.signal);
  const deadlines = { all: all.signal, vote: vote.signal };
  const client = runtime.platform.userClient({
    token: async () => (sentWith = await tokens.token()),
    invalidate: (refusedToken) => tokens.invalidate(refusedToken),
  });
  try {
    return await voteAndConfirm(client, pollId, answerId, deadlines);
  } catch (error) {
    const refused = sentWith;
    if (!(error instanceof PlatformError && error.code === 'invalid_token') || refused === undefined)
      throw error;
    if (!(await tokens.invalidate(refused))) throw error;
    await tokens.token();
    return await voteAndConfirm(client, pollId, answerId, deadlines);
  } finally {
    vote.clear();
    all.clear();
  }
}
