import { sandboxChoices } from '../choices.ts';
import type { StoredPoll } from '../data/poll-types.ts';
import type { PollTally } from '../data/poll-tally.ts';

/** Which list route a query was sent to: each takes its own set of parameters. */
export type ListRoute = 'public' | 'user' | 'history';

export type DateField = 'disclosedAt' | 'publicationDate' | 'openAt' | 'closeAt';
type OrderField = (typeof sandboxChoices.orderByFields)[number];
type Direction = (typeof sandboxChoices.directions)[number];

export interface PollQuery {
  readonly search?: string;
  readonly partnerIds?: ReadonlySet<string>;
  readonly ids?: ReadonlySet<string>;
  readonly quorumReached?: boolean;
  readonly bound?: boolean;
  readonly ranges: readonly { readonly field: DateField; readonly from?: number; readonly to?: number }[];
  /** Present (true or false): only the polls the fan voted in, as the spec says. */
  readonly userVoted?: boolean;
  readonly offset: number;
  readonly limit: number;
  readonly orderBy: OrderField;
  readonly direction: Direction;
}

/** A query parameter with a value the sandbox does not accept; the API answers 400 with this description. */
export class BadQuery extends Error {
  override readonly name = 'BadQuery';
  readonly code = 'bad_query';
}

const dateFields: readonly DateField[] = ['disclosedAt', 'publicationDate', 'openAt', 'closeAt'];
const filterParameters = [
  'search',
  'partnerIds[]',
  'ids[]',
  'quorumReached',
  'bound',
  ...dateFields.flatMap((field) => [`${field}[from]`, `${field}[to]`]),
];
const pagingParameters = ['page', 'limit', 'orderBy', 'cursor', 'direction'];
const allowedParameters: Record<ListRoute, ReadonlySet<string>> = {
  public: new Set([...filterParameters, ...pagingParameters]),
  user: new Set([...filterParameters, 'userVoted', ...pagingParameters]),
  history: new Set(['search', ...pagingParameters]),
};
const repeatable = new Set(['partnerIds[]', 'ids[]']);
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// `YYYY-MM-DD`, optional `Thh:mm[:ss[.fff]]`, optional offset; a space stands for a `+` sent unencoded.
const datePattern = /^(\d{4}-\d{2}-\d{2})(?:T(\d{2}:\d{2})(:\d{2}(?:\.\d{1,9})?)?)?(Z|[+\- ]\d{2}:?\d{2})?$/;

export function parsePollQuery(params: URLSearchParams, route: ListRoute): PollQuery {
  for (const name of new Set(params.keys())) {
    if (!allowedParameters[route].has(name)) {
      throw new BadQuery(`Unknown query parameter "${name}" for this resource.`);
    }
    if (!repeatable.has(name) && params.getAll(name).length > 1) {
      throw new BadQuery(`Query parameter "${name}" may be given only once.`);
    }
  }
  const one = (name: string): string | undefined => params.get(name) ?? undefined;
  const limit =
    integer(one('limit'), 'limit', 1, sandboxChoices.paging.maxLimit) ?? sandboxChoices.paging.defaultLimit;
  const page = integer(one('page'), 'page', sandboxChoices.paging.firstPage, Number.MAX_SAFE_INTEGER) ?? 1;
  const cursor = one('cursor');
  return {
    search: one('search'),
    partnerIds: uuids(params.getAll('partnerIds[]'), 'partnerIds[]'),
    ids: uuids(params.getAll('ids[]'), 'ids[]'),
    quorumReached: boolean(one('quorumReached'), 'quorumReached'),
    bound: boolean(one('bound'), 'bound'),
    userVoted: boolean(one('userVoted'), 'userVoted'),
    ranges: dateFields.flatMap((field) => {
      const from = date(one(`${field}[from]`), `${field}[from]`);
      const to = date(one(`${field}[to]`), `${field}[to]`);
      return from === undefined && to === undefined ? [] : [{ field, from, to }];
    }),
    offset: cursor === undefined ? (page - 1) * limit : decodeCursor(cursor),
    limit,
    orderBy: oneOf(one('orderBy'), 'orderBy', sandboxChoices.orderByFields) ?? sandboxChoices.defaultOrderBy,
    direction:
      oneOf(one('direction')?.toLowerCase(), 'direction', sandboxChoices.directions) ??
      sandboxChoices.defaultDirection,
  };
}

export interface PollRow {
  readonly poll: StoredPoll;
  readonly tally: PollTally;
  /** Whether the asking fan has a vote in this poll (user routes only). */
  readonly voted: boolean;
}

/** Filters, orders and pages rows; `nextOffset` is set when more rows follow the page. */
export function selectPolls(
  rows: readonly PollRow[],
  query: PollQuery,
): { page: PollRow[]; nextOffset?: number } {
  const search = query.search?.toLowerCase();
  const matching = rows.filter(
    ({ poll, tally, voted }) =>
      (!search || poll.question.toLowerCase().includes(search)) &&
      (!query.partnerIds || query.partnerIds.has(poll.partnerId.toLowerCase())) &&
      (!query.ids || query.ids.has(poll.id.toLowerCase())) &&
      (query.quorumReached === undefined || tally.isQuorumReached === query.quorumReached) &&
      (query.bound === undefined || poll.isBound === query.bound) &&
      (query.userVoted === undefined || voted) &&
      query.ranges.every(({ field, from, to }) => {
        const value = poll[field];
        return (from === undefined || value >= from) && (to === undefined || value <= to);
      }),
  );
  const sign = query.direction === 'asc' ? 1 : -1;
  matching.sort((a, b) => sign * compare(a, b, query.orderBy) || a.poll.id.localeCompare(b.poll.id));
  const page = matching.slice(query.offset, query.offset + query.limit);
  const next = query.offset + query.limit;
  return next < matching.length ? { page, nextOffset: next } : { page };
}

export function encodeCursor(offset: number): string {
  return Buffer.from(String(offset)).toString('base64url');
}

function decodeCursor(cursor: string): number {
  const text = Buffer.from(cursor, 'base64url').toString();
  if (!/^\d{1,9}$/.test(text) || encodeCursor(Number(text)) !== cursor) {
    throw new BadQuery('Query parameter "cursor" is not a cursor this API gave out.');
  }
  return Number(text);
}

function compare(a: PollRow, b: PollRow, field: OrderField): number {
  if (field === 'question') return a.poll.question.localeCompare(b.poll.question);
  if (field === 'usedTokenCount') return a.tally.usedTokenCount - b.tally.usedTokenCount;
  return a.poll[field] - b.poll[field];
}

function integer(value: string | undefined, name: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const number = /^\d{1,16}$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(number) || number < min || number > max) {
    throw new BadQuery(`Query parameter "${name}" must be an integer from ${min} to ${max}, not "${value}".`);
  }
  return number;
}

function boolean(value: string | undefined, name: string): boolean | undefined {
  if (value === undefined) return undefined;
  if (value === 'true' || value === 'false') return value === 'true';
  throw new BadQuery(`Query parameter "${name}" must be true or false, not "${value}".`);
}

function uuids(values: readonly string[], name: string): ReadonlySet<string> | undefined {
  if (values.length === 0) return undefined;
  const bad = values.find((value) => !uuidPattern.test(value));
  if (bad !== undefined) throw new BadQuery(`Query parameter "${name}" must hold UUIDs, not "${bad}".`);
  return new Set(values.map((value) => value.toLowerCase()));
}

function oneOf<T extends string>(
  value: string | undefined,
  name: string,
  allowed: readonly T[],
): T | undefined {
  if (value === undefined) return undefined;
  const found = allowed.find((candidate) => candidate === value);
  if (found === undefined) {
    throw new BadQuery(`Query parameter "${name}" must be one of ${allowed.join(', ')}, not "${value}".`);
  }
  return found;
}

/** A date-time with or without an offset (none means UTC), or a date alone (midnight UTC). */
function date(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const parts = datePattern.exec(value);
  const offset = parts?.[4]?.replace(' ', '+') ?? 'Z';
  const iso = parts ? `${parts[1] ?? ''}T${parts[2] ?? '00:00'}${parts[3] ?? ':00'}${offset}` : '';
  const epoch = Date.parse(iso);
  if (!parts || Number.isNaN(epoch) || !sameCalendarDay(parts[1] ?? '', epoch, offset)) {
    throw new BadQuery(
      `Query parameter "${name}" must be a date-time like 2022-03-29T12:30:33 (optional offset), not "${value}".`,
    );
  }
  return epoch;
}

/** Rejects dates that JavaScript rolls over (2022-02-30) by reading the day back in the given offset. */
function sameCalendarDay(day: string, epoch: number, offset: string): boolean {
  const sign = offset.startsWith('-') ? -1 : 1;
  const digits = offset === 'Z' ? '0000' : offset.slice(1).replace(':', '');
  const offsetMs = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))) * 60_000;
  return new Date(epoch + offsetMs).toISOString().slice(0, 10) === day;
}
