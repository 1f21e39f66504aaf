/**
 * The messages between a card's page and its session frame (a frame of the proxy's origin holding the fan's session in
 * its memory: `iframe/session-frame.ts`, `voting/frame-session-host.ts`). A short, closed list, each checked for
 * shape here and for origin and window by its receiver. No message carries a credential: the frame answers with what
 * the proxy's JSON says (`SessionStatus`, the fan's poll), never with its header.
 */
import { isRecord } from '../../src/contracts/is-record.ts';
import { frameKeyPattern } from '../../src/contracts/frame-session-contract.ts';
import { sessionPath, signOutPath } from '../../src/contracts/proxy-paths.ts';
import { hasOnlyKeys, isShortString } from './shape.ts';

export const sessionFrameSource = {
  page: 'fan-polls-session-page',
  frame: 'fan-polls-session-frame',
} as const;

/** Page -> frame: one proxy call of the closed list (`isFrameCallable`), answered by an `answer` of the same `id`. */
export interface SessionFrameCall {
  readonly source: typeof sessionFrameSource.page;
  readonly type: 'call';
  readonly id: number;
  readonly path: string;
  readonly method: 'GET' | 'POST';
  /** The vote's `{ answerId }`, and nothing else. */
  readonly body?: { readonly answerId: string };
}

/** Page -> frame: the handoff code a sign-in bound to the frame's challenge posted to the page. */
export interface SessionFrameRedeem {
  readonly source: typeof sessionFrameSource.page;
  readonly type: 'redeem';
  readonly id: number;
  readonly handoff: string;
}

export type PageToSessionFrame = SessionFrameCall | SessionFrameRedeem;

/** Frame -> page: the challenge the next sign-in carries (at start, and fresh after each redeem). */
export interface SessionFrameChallenge {
  readonly source: typeof sessionFrameSource.frame;
  readonly type: 'challenge';
  readonly challenge: string;
}

/** Frame -> page: the answer to call or redeem `id`: the proxy's body, or its error as the proxy client words it. */
export type SessionFrameAnswer =
  | {
      readonly source: typeof sessionFrameSource.frame;
      readonly type: 'answer';
      readonly id: number;
      readonly ok: true;
      readonly body?: unknown;
    }
  | {
      readonly source: typeof sessionFrameSource.frame;
      readonly type: 'answer';
      readonly id: number;
      readonly ok: false;
      readonly code: string;
      readonly status?: number;
      readonly reason?: string;
      readonly retryAfterSeconds?: number;
    };

export type SessionFrameToPage = SessionFrameChallenge | SessionFrameAnswer;

const uuid = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
const userPoll = new RegExp(`^/api/user/polls/${uuid}$`);
const vote = new RegExp(`^/api/user/polls/${uuid}/vote(\\?[\\w=&%.-]{0,600})?$`);

/** The frame's closed list: the session, sign-out, the fan's poll and the vote; nothing else is fetched for a page. */
export function isFrameCallable(path: string, method: string, hasBody: boolean): boolean {
  if (method === 'GET') return !hasBody && (path === sessionPath || userPoll.test(path));
  if (method === 'POST') return hasBody ? vote.test(path) : path === signOutPath;
  return false;
}

const isId = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

/** A page's message to the frame, when it has exactly one of the shapes above and asks for a callable route. */
export function readPageToSessionFrame(data: unknown): PageToSessionFrame | undefined {
  if (!isRecord(data) || data.source !== sessionFrameSource.page || !isId(data.id)) return undefined;
  if (data.type === 'redeem')
    return hasOnlyKeys(data, ['source', 'type', 'id', 'handoff']) && isShortString(data.handoff, 128)
      ? { source: sessionFrameSource.page, type: 'redeem', id: data.id, handoff: data.handoff }
      : undefined;
  if (data.type !== 'call' || !hasOnlyKeys(data, ['source', 'type', 'id', 'path', 'method'], ['body']))
    return undefined;
  const { path, method, body } = data;
  if (!isShortString(path, 800) || (method !== 'GET' && method !== 'POST')) return undefined;
  const vote =
    isRecord(body) && hasOnlyKeys(body, ['answerId']) && isShortString(body.answerId, 64)
      ? { answerId: body.answerId }
      : undefined;
  if ((body !== undefined && vote === undefined) || !isFrameCallable(path, method, vote !== undefined))
    return undefined;
  return {
    source: sessionFrameSource.page,
    type: 'call',
    id: data.id,
    path,
    method,
    ...(vote && { body: vote }),
  };
}

/** The frame's message to the page, when it has exactly one of the shapes above. */
export function readSessionFrameToPage(data: unknown): SessionFrameToPage | undefined {
  if (!isRecord(data) || data.source !== sessionFrameSource.frame) return undefined;
  if (data.type === 'challenge')
    return hasOnlyKeys(data, ['source', 'type', 'challenge']) &&
      typeof data.challenge === 'string' &&
      frameKeyPattern.test(data.challenge)
      ? { source: sessionFrameSource.frame, type: 'challenge', challenge: data.challenge }
      : undefined;
  if (data.type !== 'answer' || !isId(data.id)) return undefined;
  if (data.ok === true)
    return hasOnlyKeys(data, ['source', 'type', 'id', 'ok'], ['body'])
      ? (data as SessionFrameAnswer)
      : undefined;
  const optional = ['status', 'reason', 'retryAfterSeconds'];
  if (data.ok !== false || !hasOnlyKeys(data, ['source', 'type', 'id', 'ok', 'code'], optional))
    return undefined;
  const numberOrAbsent = (value: unknown) => value === undefined || typeof value === 'number';
  return isShortString(data.code, 64) &&
    numberOrAbsent(data.status) &&
    numberOrAbsent(data.retryAfterSeconds) &&
    (data.reason === undefined || isShortString(data.reason, 64))
    ? (data as SessionFrameAnswer)
    : undefined;
}
