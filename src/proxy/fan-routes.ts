import { deadline } from '../platform/deadline.ts';
import { Hono, type Context } from 'hono';
import { PlatformError, neverReachedPlatform } from '../platform/errors.ts';
import type { PlatformClient } from '../platform/client.ts';
import { checkUuid, parsePollFilters } from '../platform/query.ts';
import type { TokenKeeper } from '../platform/token-keeper.ts';
import { voteAndConfirm, voteInDoubt, type VoteOutcome } from '../platform/vote.ts';
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
    const session = await runtime.sessions.find(await runtime.readSessionId(c));
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
    const attempt: VoteAttempt = { mayHaveArrived: false, tokenFailures: new WeakSet() };
    try {
      const outcome = await voteWithFreshToken(runtime, tokens, pollId, answerId, attempt);
      runtime.logger.log('info', 'vote', { outcome: outcome.status });
      runtime.analytics.vote(pollId, query(c));
      return c.body(null, 201);
    } catch (error) {
      const failure = voteFailure(error, attempt, runtime.now());
      runtime.analytics.vote(pollId, query(c), failure);
      throw failure;
    }
  });

  return app;
}

interface VoteAttempt {
  /** A vote request failed in a way that leaves its arrival in doubt (a timeout, a reset, a 5xx). */
  mayHaveArrived: boolean;
  /** Failures of getting the fan's token: no request left with them. */
  readonly tokenFailures: WeakSet<object>;
}

/**
 * Each way a vote fails, as the card hears it: `vote_not_sent` when it certainly never reached the platform (no token,
 * held by the proxy's breaker or a 429, no connection made), `vote_uncertain` only when it may have (a timeout, a
 * reset, a 5xx) and the re-read could not tell, `not_signed_in` when the fan's sign-in is gone, `vote_refused` with
 * the platform's reason; anything else goes to the error exit as it is.
 */
function voteFailure(error: unknown, attempt: VoteAttempt, now: number): unknown {
  if (!(error instanceof PlatformError)) return error;
  if (attempt.mayHaveArrived && voteInDoubt(error)) {
    // The re-read did not show the vote (or failed too): say so plainly; the fan decides whether to try again.
    return new ProxyError(
      'vote_uncertain',
      'The vote may not have been counted. Check the poll and try again.',
      {
        cause: error,
      },
    );
  }
  const tokenFailed = attempt.tokenFailures.has(error);
  // A refused refresh token: the fan must sign in again (`not_signed_in`), whatever the vote.
  if ((tokenFailed && error.code !== 'invalid_token') || neverReachedPlatform(error)) {
    const retryAfterSeconds =
      error.retryAt === undefined
        ? undefined
        : Math.max(1, Math.ceil((error.retryAt.getTime() - now) / 1000));
    return new ProxyError('vote_not_sent', 'Your vote was not sent. Try again.', {
      cause: error,
      ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
    });
  }
  return error;
}

/**
 * Deadlines that nest inside the widget's 10 s request timeout: the vote request gets 5.5 s, and the whole route
 * (a re-read of the fan's poll when the vote's answer is lost included) answers within 8 s, so the card hears an
 * outcome ("counted", "refused" or "check the poll") before it gives up, never a vote it reports failed that counted.
 */
const voteRequestDeadlineMs = 5500;
const voteRouteDeadlineMs = 8000;

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
  attempt: VoteAttempt,
): Promise<VoteOutcome> {
  let sentWith: string | undefined;
  const token = async () => {
    try {
      return await tokens.token();
    } catch (error) {
      if (typeof error === 'object' && error !== null) attempt.tokenFailures.add(error);
      throw error;
    }
  };
  const all = deadline(voteRouteDeadlineMs);
  const vote = deadline(voteRequestDeadlineMs, all.signal);
  const deadlines = { all: all.signal, vote: vote.signal };
  const platform = runtime.platform.userClient({
    token: async () => (sentWith = await token()),
    invalidate: (refusedToken) => tokens.invalidate(refusedToken),
  });
  const client: Pick<PlatformClient, 'vote' | 'getUserPoll'> = {
    vote: async (...args) => {
      try {
        await platform.vote(...args);
      } catch (error) {
        if (voteInDoubt(error) && !attempt.tokenFailures.has(error)) attempt.mayHaveArrived = true;
        throw error;
      }
    },
    getUserPoll: (...args) => platform.getUserPoll(...args),
  };
  try {
    return await voteAndConfirm(client, pollId, answerId, deadlines);
  } catch (error) {
    const refused = sentWith;
    if (!(error instanceof PlatformError && error.code === 'invalid_token') || refused === undefined)
      throw error;
    if (!(await tokens.invalidate(refused))) throw error;
    await token();
    return await voteAndConfirm(client, pollId, answerId, deadlines);
  } finally {
    vote.clear();
    all.clear();
  }
}
