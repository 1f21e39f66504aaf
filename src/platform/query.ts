/**
 * The poll list filters: their types, their checks, and their encoding exactly as the platform expects
 * (`partnerIds[]=a&partnerIds[]=b`, `disclosedAt[from]=...`). The client encodes with it; the partner proxy parses
 * and re-encodes incoming filters with it, in one canonical order, so that equal filters make equal cache keys.
 */
import { PlatformError } from './errors.ts';

export interface DateRange {
  readonly from?: string;
  readonly to?: string;
}

export type SortDirection = 'asc' | 'desc';

/** Paging and ordering, the only parameters of the history route. */
export interface PagingQuery {
  readonly search?: string;
  /** 1-based. */
  readonly page?: number;
  readonly limit?: number;
  readonly orderBy?: string;
  readonly cursor?: string;
  readonly direction?: SortDirection;
}

/** Filters of `GET /polls/<version>/polls`. */
export interface PollFilters extends PagingQuery {
  readonly partnerIds?: readonly string[];
  readonly ids?: readonly string[];
  readonly quorumReached?: boolean;
  readonly bound?: boolean;
  readonly disclosedAt?: DateRange;
  readonly publicationDate?: DateRange;
  readonly openAt?: DateRange;
  readonly closeAt?: DateRange;
}

/** Filters of `GET /polls/<version>/user/polls`: the same plus `userVoted`. */
export interface UserPollFilters extends PollFilters {
  readonly userVoted?: boolean;
}

/** Which route's parameters are allowed: `history` takes paging only, `userPolls` adds `userVoted`. */
export type FilterScope = 'polls' | 'userPolls' | 'history';

const dateRangeKeys = ['disclosedAt', 'publicationDate', 'openAt', 'closeAt'] as const;
const arrayKeys = ['ids', 'partnerIds'] as const;
const booleanKeys = ['bound', 'quorumReached', 'userVoted'] as const;
const pagingStringKeys = ['cursor', 'orderBy', 'search'] as const;
const pagingKeys = ['cursor', 'direction', 'limit', 'orderBy', 'page', 'search'] as const;

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// `2022-03-29T12:30:33` as the spec's examples, optionally with fractions and a `Z` or `±hh:mm` offset.
const dateTimePattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:?\d{2})?$/;
const maxTextLength = 200;
/** The largest page the platform serves (the spec is silent; the sandbox's choice, `sandbox/choices.ts`). */
export const maxPageSize = 100;
/** Fields a list may be ordered by (the spec is silent; the sandbox's choice). */
export const orderByFields = [
  'openAt',
  'closeAt',
  'publicationDate',
  'disclosedAt',
  'question',
  'usedTokenCount',
];

export function isUuid(value: string): boolean {
  return uuidPattern.test(value);
}

function invalid(message: string): never {
  throw new PlatformError('invalid_input', message);
}

export function checkUuid(value: unknown, name: string): string {
  if (typeof value !== 'string' || !isUuid(value)) invalid(`${name} must be a uuid`);
  return value;
}

function checkDateTime(value: unknown, name: string): string {
  if (typeof value !== 'string' || !dateTimePattern.test(value) || !isCalendarDateTime(value)) {
    invalid(`${name} must be a date-time (YYYY-MM-DDThh:mm:ss) that exists`);
  }
  return value;
}

/** The date exists in the calendar (no 30th of February, no month 13, no 25th hour): `Date.parse` rolls those over. */
function isCalendarDateTime(value: string): boolean {
  const [year, month, day, hour, minute, second] = value.slice(0, 19).split(/[-T:]/).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const date = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  return (
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    hour < 24 &&
    minute < 60 &&
    second < 60
  );
}

function checkPositiveInteger(value: unknown, name: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    invalid(`${name} must be a positive integer`);
  }
  return value;
}

function checkText(value: unknown, name: string): string {
  if (typeof value !== 'string' || value.length > maxTextLength) {
    invalid(`${name} must be a string of at most ${maxTextLength} characters`);
  }
  return value;
}

function checkBoolean(value: unknown, name: string): boolean {
  if (typeof value !== 'boolean') invalid(`${name} must be true or false`);
  return value;
}

function checkDirection(value: unknown): SortDirection {
  if (value !== 'asc' && value !== 'desc') invalid('direction must be asc or desc');
  return value;
}

function allowedKeys(scope: FilterScope): ReadonlySet<string> {
  if (scope === 'history') return new Set(pagingKeys);
  const keys = new Set<string>([...pagingKeys, ...arrayKeys, 'bound', 'quorumReached', ...dateRangeKeys]);
  if (scope === 'userPolls') keys.add('userVoted');
  return keys;
}

/**
 * Checks filters and encodes them as query parameters, in canonical order: parameter names sorted, array values
 * sorted and de-duplicated. Throws `invalid_input` on the first bad value or a parameter the scope does not take.
 */
export function encodePollFilters(
  filters: UserPollFilters = {},
  scope: FilterScope = 'userPolls',
): URLSearchParams {
  const allowed = allowedKeys(scope);
  const entries: [string, string][] = [];
  for (const [key, value] of Object.entries(filters) as [string, unknown][]) {
    if (value === undefined) continue;
    if (!allowed.has(key)) invalid(`${key} is not a filter of this route`);
    if ((arrayKeys as readonly string[]).includes(key)) {
      if (!Array.isArray(value)) invalid(`${key} must be a list of uuids`);
      const ids = new Set(value.map((id: unknown) => checkUuid(id, `${key}[]`).toLowerCase()));
      for (const id of ids) entries.push([`${key}[]`, id]);
    } else if ((dateRangeKeys as readonly string[]).includes(key)) {
      if (typeof value !== 'object' || value === null) invalid(`${key} must be { from?, to? }`);
      const range = value as Record<string, unknown>;
      for (const bound of Object.keys(range)) {
        if (bound !== 'from' && bound !== 'to') invalid(`${key}[${bound}] is not a filter`);
      }
      for (const bound of ['from', 'to'] as const) {
        if (range[bound] !== undefined) {
          entries.push([`${key}[${bound}]`, checkDateTime(range[bound], `${key}[${bound}]`)]);
        }
      }
    } else if ((booleanKeys as readonly string[]).includes(key)) {
      entries.push([key, String(checkBoolean(value, key))]);
    } else if (key === 'page') {
      entries.push([key, String(checkPositiveInteger(value, key))]);
    } else if (key === 'limit') {
      const limit = checkPositiveInteger(value, key);
      if (limit > maxPageSize) invalid(`limit must be from 1 to ${maxPageSize}`);
      entries.push([key, String(limit)]);
    } else if (key === 'orderBy') {
      if (typeof value !== 'string' || !orderByFields.includes(value)) {
        invalid(`orderBy must be one of ${orderByFields.join(', ')}`);
      }
      entries.push([key, value]);
    } else if (key === 'direction') {
      entries.push([key, checkDirection(value)]);
    } else if ((pagingStringKeys as readonly string[]).includes(key)) {
      entries.push([key, checkText(value, key)]);
    }
  }
  entries.sort(([a, aValue], [b, bValue]) => (a === b ? compare(aValue, bValue) : compare(a, b)));
  return new URLSearchParams(entries);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The query string as the platform writes it: brackets literal (`ids[]=a`), values percent-encoded. Empty string
 * when there are no filters; otherwise starts with `?`.
 */
export function queryString(parameters: URLSearchParams): string {
  const parts: string[] = [];
  for (const [key, value] of parameters) {
    parts.push(
      `${encodeURIComponent(key).replace(/%5B/g, '[').replace(/%5D/g, ']')}=${encodeURIComponent(value)}`,
    );
  }
  return parts.length === 0 ? '' : `?${parts.join('&')}`;
}

/**
 * Reads filters from an incoming query (the proxy's), with the same checks as `encodePollFilters`. Unknown or
 * repeated scalar parameters are `invalid_input`, so that nothing unchecked reaches the platform or a cache key.
 */
export function parsePollFilters(parameters: URLSearchParams, scope: FilterScope = 'polls'): UserPollFilters {
  const allowed = allowedKeys(scope);
  const filters: Record<string, unknown> = {};
  const ranges: Record<string, Record<string, string>> = {};
  const seen = new Set<string>();
  for (const [rawKey, value] of parameters) {
    const arrayMatch = /^(\w+)\[\]$/.exec(rawKey);
    const rangeMatch = /^(\w+)\[(from|to)\]$/.exec(rawKey);
    if (arrayMatch) {
      const key = arrayMatch[1] ?? '';
      if (!allowed.has(key) || !(arrayKeys as readonly string[]).includes(key))
        invalid(`${rawKey} is not a filter`);
      const list = (filters[key] ??= []) as string[];
      list.push(checkUuid(value, rawKey));
      continue;
    }
    if (seen.has(rawKey)) invalid(`${rawKey} is given more than once`);
    seen.add(rawKey);
    if (rangeMatch) {
      const key = rangeMatch[1] ?? '';
      const bound = rangeMatch[2] ?? '';
      if (!allowed.has(key) || !(dateRangeKeys as readonly string[]).includes(key)) {
        invalid(`${rawKey} is not a filter`);
      }
      (ranges[key] ??= {})[bound] = checkDateTime(value, rawKey);
      continue;
    }
    if (!allowed.has(rawKey) || (arrayKeys as readonly string[]).includes(rawKey)) {
      invalid(`${rawKey} is not a filter of this route`);
    }
    if ((booleanKeys as readonly string[]).includes(rawKey)) {
      if (value !== 'true' && value !== 'false') invalid(`${rawKey} must be true or false`);
      filters[rawKey] = value === 'true';
    } else if (rawKey === 'page' || rawKey === 'limit') {
      if (!/^\d{1,15}$/.test(value)) invalid(`${rawKey} must be a positive integer`);
      filters[rawKey] = checkPositiveInteger(Number(value), rawKey);
    } else if (rawKey === 'direction') {
      filters[rawKey] = checkDirection(value);
    } else {
      filters[rawKey] = checkText(value, rawKey);
    }
  }
  Object.assign(filters, ranges);
  // The encoder's checks too (page size, ordering field): nothing it would refuse gets past the parse.
  encodePollFilters(filters, scope);
  return filters;
}
