/**
 * Tolerant parsing of what the platform sends, from `unknown`. Tolerant of what the platform is known to vary
 * (`data` as an array or one object, decimals as numbers or strings, unknown enum values, missing or null optional
 * fields) and lenient about what the card does not show (`votePercentage`, the quorum decimals, free-text and enum
 * strings: an unreadable value reads as absent); strict about what makes a poll a poll and what the card counts
 * (`id`, `question`, `answers` with ids, texts and token counts). A poll that fails costs itself, not its list: the
 * list keeps the polls it can read, and is `PlatformError('malformed_response')` only when it can read none. Never a
 * crash, never a half-built object.
 */
import { PlatformError } from './errors.ts';
import { isRecord } from '../contracts/is-record.ts';
import type { Answer, CurrentUser, PartnerImage, Poll } from './types.ts';

class Malformed extends Error {}

function fail(path: string, expected: string): never {
  throw new Malformed(`${path}: expected ${expected}`);
}

/** Runs a parser; any shape problem becomes one `malformed_response` naming the field (never the value). */
function guarded<T>(what: string, parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (error instanceof Malformed) {
      throw new PlatformError(
        'malformed_response',
        `${what} is not what the platform sends (${error.message})`,
        {
          cause: error,
        },
      );
    }
    throw new PlatformError('malformed_response', `${what} could not be read`, { cause: error });
  }
}

function requiredString(record: Record<string, unknown>, key: string, path: string): string {
  const value = record[key];
  if (typeof value !== 'string') fail(`${path}.${key}`, 'a string');
  return value;
}

/**
 * Decimals arrive as strings (`"0.2"`); a number is accepted and written the way JavaScript writes it. The card shows
 * none of them (it computes shares from token counts), so an unreadable one reads as `fallback`, never a failure.
 */
function decimal(record: Record<string, unknown>, key: string, fallback: string): string {
  const value = record[key];
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return value.trim();
  return fallback;
}

/** A string the card can do without (free text, open enums): anything but a string reads as absent. */
function lenientString(record: Record<string, unknown>, key: string): string | undefined {
  const value = record[key];
  return typeof value === 'string' ? value : undefined;
}

/** Counts: a non-negative integer, or a string of digits. */
function count(record: Record<string, unknown>, key: string, path: string): number {
  const value = record[key];
  if (value === undefined || value === null) return 0;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
  if (typeof value === 'string' && /^\d{1,15}$/.test(value.trim())) return Number(value.trim());
  return fail(`${path}.${key}`, 'a non-negative integer');
}

/** A flag; an unreadable one is unknown (absent), as if the platform had left it out. */
function flag(record: Record<string, unknown>, key: string): boolean | undefined {
  const value = record[key];
  if (typeof value === 'boolean') return value;
  if (value === 'true' || value === 'false') return value === 'true';
  return undefined;
}

/** A date-time string Date can read, kept as sent; null, missing or unreadable dates are absent. */
function dateTime(record: Record<string, unknown>, key: string): string | undefined {
  const value = record[key];
  if (typeof value !== 'string') return undefined;
  return Number.isNaN(Date.parse(value)) ? undefined : value;
}

function statisticsCount(record: Record<string, unknown>, key: string, path: string): number {
  const statistics = record.statistics;
  if (statistics === undefined || statistics === null) return 0;
  if (!isRecord(statistics)) fail(`${path}.statistics`, 'an object');
  return count(statistics, key, `${path}.statistics`);
}

function withOptional<T extends object, K extends string, V>(
  target: T,
  key: K,
  value: V | undefined,
): T & Partial<Record<K, V>> {
  if (value !== undefined) (target as Record<string, unknown>)[key] = value;
  return target;
}

function readPartnerImages(record: Record<string, unknown>, path: string): PartnerImage[] {
  const images = record.partnerImages;
  if (images === undefined || images === null) return [];
  if (!Array.isArray(images)) fail(`${path}.partnerImages`, 'an array');
  const parsed: PartnerImage[] = [];
  images.forEach((image: unknown) => {
    // Images are decoration: one without a URL is skipped rather than failing the poll.
    if (!isRecord(image) || typeof image.url !== 'string') return;
    let result: PartnerImage = { url: image.url };
    for (const key of ['type', 'format'] as const) {
      result = withOptional(result, key, lenientString(image, key));
    }
    for (const key of ['width', 'height'] as const) {
      const value = image[key];
      if (typeof value === 'number' && Number.isFinite(value))
        result = withOptional(result, key, String(value));
      else result = withOptional(result, key, lenientString(image, key));
    }
    parsed.push(result);
  });
  return parsed;
}

function readAnswer(value: unknown, path: string): Answer {
  if (!isRecord(value)) fail(path, 'an answer object');
  const answer: Answer = {
    id: requiredString(value, 'id', path),
    answer: requiredString(value, 'answer', path),
    votePercentage: decimal(value, 'votePercentage', '0'),
    totalVoteTokensUsed: count(value, 'totalVoteTokensUsed', path),
    statistics: { uniqueAnswerVoteCount: statisticsCount(value, 'uniqueAnswerVoteCount', path) },
  };
  return withOptional(answer, 'voteStatus', lenientString(value, 'voteStatus'));
}

function readPoll(value: unknown, path: string): Poll {
  if (!isRecord(value)) fail(path, 'a poll object');
  const answers = value.answers;
  if (!Array.isArray(answers)) fail(`${path}.answers`, 'an array');
  let poll: Poll = {
    id: requiredString(value, 'id', path),
    partnerId: lenientString(value, 'partnerId') ?? '',
    partnerName: lenientString(value, 'partnerName') ?? '',
    partnerImages: readPartnerImages(value, path),
    question: requiredString(value, 'question', path),
    isBound: flag(value, 'isBound') ?? false,
    isQuorumReached: flag(value, 'isQuorumReached') ?? false,
    quorum: decimal(value, 'quorum', '0'),
    currentQuorumPercentage: decimal(value, 'currentQuorumPercentage', '0'),
    usedTokenCount: count(value, 'usedTokenCount', path),
    tokenLimit: count(value, 'tokenLimit', path),
    status: lenientString(value, 'status') ?? '',
    information: lenientString(value, 'information') ?? '',
    answers: answers.map((answer: unknown, index) => readAnswer(answer, `${path}.answers[${index}]`)),
    statistics: { uniqueVoteCount: statisticsCount(value, 'uniqueVoteCount', path) },
  };
  if (poll.id === '') fail(`${path}.id`, 'a non-empty string');
  for (const key of ['openAt', 'publicationDate', 'closeAt', 'disclosedAt'] as const) {
    poll = withOptional(poll, key, dateTime(value, key));
  }
  poll = withOptional(poll, 'type', lenientString(value, 'type'));
  poll = withOptional(poll, 'userVote', flag(value, 'userVote'));
  poll = withOptional(poll, 'blockchainAddress', lenientString(value, 'blockchainAddress'));
  return poll;
}

function dataOf(body: unknown): unknown {
  if (!isRecord(body) || !('data' in body)) fail('body', 'an object with `data`');
  return body.data;
}

/**
 * A poll list answer: `{ data: Poll[] }` or `{ data: Poll }` (the documented example shows one object). A poll that
 * cannot be read is left out (`onDropped` hears why, naming the field, never the value); a list of which no poll can
 * be read is `malformed_response`.
 */
export function parsePollList(body: unknown, onDropped?: (reason: string) => void): Poll[] {
  return guarded('The poll list', () => {
    const data = dataOf(body);
    if (!Array.isArray(data)) return [readPoll(data, 'data')];
    const polls: Poll[] = [];
    let firstProblem: Malformed | undefined;
    data.forEach((poll: unknown, index) => {
      try {
        polls.push(readPoll(poll, `data[${index}]`));
      } catch (error) {
        if (!(error instanceof Malformed)) throw error;
        firstProblem ??= error;
        onDropped?.(error.message);
      }
    });
    if (polls.length === 0 && firstProblem !== undefined) throw firstProblem;
    return polls;
  });
}

/** One poll: `{ data: Poll }`, or a one-element array. */
export function parsePoll(body: unknown): Poll {
  return guarded('The poll', () => {
    const data = dataOf(body);
    if (Array.isArray(data)) {
      if (data.length !== 1) fail('data', 'one poll');
      return readPoll(data[0], 'data[0]');
    }
    return readPoll(data, 'data');
  });
}

/** `{ data: { userId } }`. */
export function parseCurrentUser(body: unknown): CurrentUser {
  return guarded('The current user', () => {
    const data = dataOf(body);
    if (!isRecord(data)) fail('data', 'an object');
    const userId = requiredString(data, 'userId', 'data');
    if (userId === '') fail('data.userId', 'a non-empty string');
    return { userId };
  });
}

/** The survey list: its shape is not public, so the items are returned as sent (objects only). */
export function parseSurveyList(body: unknown): Record<string, unknown>[] {
  return guarded('The survey list', () => {
    const data = dataOf(body);
    const items: unknown[] = Array.isArray(data) ? data : [data];
    return items.map((item, index) => {
      if (!isRecord(item)) fail(`data[${index}]`, 'an object');
      return item;
    });
  });
}

/** The gateway's error body, `{ code, message, description }` with `code` a string (sometimes a number). */
export interface GatewayErrorBody {
  readonly code?: string;
  readonly message?: string;
  readonly description?: string;
  readonly nextAccessTime?: string;
}

/** Reads whatever of the gateway's error fields are there; undefined when the body is not an object. */
export function parseGatewayError(body: unknown): GatewayErrorBody | undefined {
  if (!isRecord(body)) return undefined;
  const text = (value: unknown): string | undefined =>
    typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;
  const result: Record<string, string> = {};
  for (const key of ['code', 'message', 'description', 'nextAccessTime'] as const) {
    const value = text(body[key]);
    if (value !== undefined) result[key] = value;
  }
  return result;
}

/** The OAuth server's error body, `{ error, error_description }`. */
export interface TokenErrorBody {
  readonly error: string;
  readonly errorDescription?: string;
}

export function parseTokenError(body: unknown): TokenErrorBody | undefined {
  if (!isRecord(body) || typeof body.error !== 'string' || body.error === '') return undefined;
  return typeof body.error_description === 'string'
    ? { error: body.error, errorDescription: body.error_description }
    : { error: body.error };
}
