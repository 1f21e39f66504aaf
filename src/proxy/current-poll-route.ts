import type { Context, Handler } from 'hono';
import { currentPollPartnerParam, partnerIdsOf } from '../contracts/current-poll-contract.ts';
import { maxPageSize, type PollFilters } from '../platform/query.ts';
import type { Poll } from '../platform/types.ts';
import { currentPoll } from '../polls/current-poll.ts';
import { ProxyError } from './errors.ts';
import { etagOf, type CachedAnswer } from './response-cache.ts';
import type { ProxyRuntime } from './runtime.ts';

/** What the route needs of the public poll reads (`public-routes.ts`). */
export interface CurrentPollReads {
  /** The cached answer of the public list with these filters (one cache entry with `/api/polls`'s same query). */
  readonly readList: (c: Context, filters: PollFilters) => Promise<CachedAnswer>;
  /**
   * Keeps a poll's answers as its public reads' (`{ data: Poll }` for `/api/polls/:pollId` and the live streams,
   * `{ data: [Poll] }` for a card's `/api/polls?ids[]=…&limit=1`), unless newer ones are held (`ResponseCache.put`).
   */
  readonly keepPoll: (
    pollId: string,
    kept: { readonly one: CachedAnswer; readonly asList: CachedAnswer },
  ) => void;
  /** The answer of a cached read, as `/api/polls/:pollId` sends it. */
  readonly answer: (c: Context, cached: CachedAnswer) => Response;
}

/**
 * `GET currentPollPath?partnerIds[]=…`: the partners' current poll (`currentPollReader`), as a poll read is answered.
 */
export function currentPollHandler(readerFor: CurrentPollReader, reads: CurrentPollReads): Handler {
  return async (c) => reads.answer(c, await readerFor(c)());
}

/**
 * The read of a request's current poll: its partners (`partnerIds[]`, checked at once: `invalid_filter`), then, when
 * called, `{ data: Poll | null }`.
 */
export type CurrentPollReader = (c: Context) => () => Promise<CachedAnswer>;

/**
 * The read of a request's current poll, from its `partnerIds[]` (`currentPollPicker`).
 */
export function currentPollReader(runtime: ProxyRuntime, reads: CurrentPollReads): CurrentPollReader {
  const pick = currentPollPicker(runtime, reads);
  return (c) => {
    const partnerIds = partnerIdsOf(
      new URL(c.req.url).searchParams.getAll(currentPollPartnerParam).join(' '),
    );
    if (partnerIds === undefined)
      throw new ProxyError('invalid_filter', 'partnerIds[] must name one to ten partners by uuid.');
    return () => pick(c, partnerIds);
  };
}

/**
 * The partners' current poll (`currentPoll`; `partnerIds` as `partnerIdsOf` gives them), picked from the proxy's
 * cached list of their polls (the latest `maxPageSize` of them, the platform's list read that `/api/polls` caches too),
 * so a crowd of fans costs one list read per freshness window, and none per fan. The poll's answer is also kept as its
 * public read, as new as the list: the card's read of the poll that follows is answered from the cache. One answer
 * object per list answer and poll, so that what is drawn from it (a `current` card, `drawn-card.ts`; a `current`
 * banner's page, `frame-page-render.ts`) is drawn once per list read.
 */
export function currentPollPicker(
  runtime: ProxyRuntime,
  reads: Pick<CurrentPollReads, 'readList' | 'keepPoll'>,
): (c: Context, partnerIds: readonly string[]) => Promise<CachedAnswer> {
  const recentMs = runtime.config.currentPollRecentHours * 3_600_000;
  return async (c, partnerIds) => {
    const list = await reads.readList(c, { partnerIds, limit: maxPageSize });
    const poll = currentPoll(pollsOf(list), runtime.now(), recentMs);
    const answer = await answerOf(list, poll, false);
    if (poll !== undefined)
      reads.keepPoll(poll.id, { one: answer, asList: await answerOf(list, poll, true) });
    return answer;
  };
}

/** Each list answer's polls, parsed once (the proxy wrote the body from the platform's parsed answer). */
const parsedLists = new WeakMap<CachedAnswer, readonly Poll[]>();
/** Each list answer's answers of the polls picked from it (and `null`), alone or as a list, built once. */
const currentAnswers = new WeakMap<CachedAnswer, Map<string, Promise<CachedAnswer>>>();

function pollsOf(list: CachedAnswer): readonly Poll[] {
  let polls = parsedLists.get(list);
  if (polls === undefined) {
    const body = JSON.parse(list.body) as { data?: unknown };
    polls = Array.isArray(body.data) ? (body.data as Poll[]) : [];
    parsedLists.set(list, polls);
  }
  return polls;
}

/** `{ data: Poll | null }` (or `{ data: [Poll] }`), as old as the list it was picked from (its `Age`). */
function answerOf(list: CachedAnswer, poll: Poll | undefined, asList: boolean): Promise<CachedAnswer> {
  let answers = currentAnswers.get(list);
  if (answers === undefined) {
    answers = new Map();
    currentAnswers.set(list, answers);
  }
  const key = `${asList ? '[]' : ''}${poll?.id ?? ''}`;
  let answer = answers.get(key);
  if (answer === undefined) {
    const body = JSON.stringify({ data: asList ? [poll] : (poll ?? null) });
    answer = etagOf(body).then((etag) => ({ body, etag, storedAt: list.storedAt }));
    answers.set(key, answer);
  }
  return answer;
}
