import type { Context, Handler } from 'hono';
import { sandboxChoices } from '../choices.ts';
import type { StoredPoll } from '../data/poll-types.ts';
import { VoteRefusal } from '../data/vote-rules.ts';
import type { SandboxState } from '../sandbox-state.ts';
import type { GatewayVariables } from './gateway-auth.ts';
import { backendError } from './gateway-errors.ts';
import type { OperationName } from './gateway-resources.ts';
import { pollJson, type PollAudience } from './poll-json.ts';
import { encodeCursor, parsePollQuery, selectPolls, type ListRoute, type PollRow } from './query-filters.ts';

type ApiContext = Context<{ Variables: GatewayVariables }>;

/** The backend behind the gateway: one handler per operation of gateway-resources.ts. */
export function operationHandlers(
  state: SandboxState,
): Record<OperationName, Handler<{ Variables: GatewayVariables }>> {
  const { polls } = state;

  const list = (c: ApiContext, route: ListRoute): Response => {
    const query = parsePollQuery(new URL(c.req.url).searchParams, route);
    const userId = route === 'public' ? undefined : c.get('grant').userId;
    const rows: PollRow[] = polls
      .published()
      .map((poll) => ({
        poll,
        tally: polls.tally(poll),
        voted: userId !== undefined && polls.voteOf(poll, userId) !== undefined,
      }))
      .filter((row) => route !== 'history' || row.voted);
    const { page, nextOffset } = selectPolls(rows, query);
    if (nextOffset !== undefined) c.header(sandboxChoices.cursorHeader, encodeCursor(nextOffset));
    return c.json({ data: page.map((row) => render(c, row.poll, userId)) });
  };

  const render = (c: ApiContext, poll: StoredPoll, userId: string | undefined): Record<string, unknown> => {
    const audience: PollAudience =
      userId === undefined ? { kind: 'public' } : { kind: 'user', vote: polls.voteOf(poll, userId) };
    return pollJson(poll, polls.tally(poll), audience, new URL(c.req.url).origin);
  };

  const readOne = (c: ApiContext, userContext: boolean): Response => {
    const pollId = c.req.param('pollId') ?? '';
    const poll = polls.find(pollId);
    if (!poll) return backendError(404, `Poll ${pollId} not found.`);
    return c.json({ data: render(c, poll, userContext ? c.get('grant').userId : undefined) });
  };

  return {
    listPolls: (c) => list(c, 'public'),
    readPoll: (c) => readOne(c, false),
    readUserPoll: (c) => readOne(c, true),
    listUserPolls: (c) => list(c, 'user'),
    listUserPollHistory: (c) => list(c, 'history'),
    vote: async (c) => {
      const pollId = c.req.param('pollId') ?? '';
      if (!polls.find(pollId)) throw new VoteRefusal('poll_not_found', `Poll ${pollId} not found.`);
      const answerId = await readAnswerId(c.req.raw);
      polls.vote(pollId, c.get('grant').userId ?? '', answerId);
      return c.body(null, 201);
    },
    readCurrentUser: (c) => c.json({ data: { userId: c.get('grant').userId } }),
    // The survey list's shape is not shown in the spec: an empty list (see choices.ts).
    listSurveys: (c) => c.json({ data: [] }),
  };
}

/** The vote body: JSON `{"answerId": "<uuid>"}` sent as `application/json`. */
async function readAnswerId(request: Request): Promise<string> {
  const type = request.headers.get('Content-Type') ?? '';
  if (!/^application\/json\s*(;|$)/i.test(type)) {
    throw new VoteRefusal('invalid_body', 'The vote must be sent as Content-Type: application/json.');
  }
  let body: unknown;
  try {
    body = await request.json();
  } catch (error) {
    throw new VoteRefusal('invalid_body', 'The vote body is not valid JSON.', { cause: error });
  }
  const answerId =
    typeof body === 'object' && body !== null ? (body as { answerId?: unknown }).answerId : undefined;
  if (typeof answerId !== 'string' || answerId === '') {
    throw new VoteRefusal('invalid_body', 'The vote body must be a JSON object with a string "answerId".');
  }
  return answerId;
}
