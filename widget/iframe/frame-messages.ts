import { cardEventNames, type CardEventName } from '../events/card-event-names.ts';
import { cleanTracking, trackingParameterNames } from '../../src/contracts/tracking.ts';
import type { FanPollEventDetail } from '../events/event-detail.ts';
import { hasOnlyKeys, isShortString } from '../messages/shape.ts';
import { isRecord } from '../../src/contracts/is-record.ts';
import { readOrigin } from '../messages/read-origin.ts';
import { returnUrlMaxLength } from '../../src/contracts/sign-in-return.ts';
import { readVoteHint, type VoteHint } from '../session/vote-hint.ts';

/** Messages between the iframe page and its host loader. Each side checks origin, source window and shape. */
export const frameSource = { frame: 'fan-polls-frame', host: 'fan-polls-host' } as const;

/** Host -> frame, once the iframe loaded: pins the origin the frame answers to. */
export interface FrameHelloMessage {
  readonly source: typeof frameSource.host;
  readonly type: 'hello';
}

/**
 * Host -> frame, after the hello: the host page's address, where a sign-in without a pop-up started in the frame
 * comes back to (on the host's origin, which the hello pinned).
 */
export interface FramePageMessage {
  readonly source: typeof frameSource.host;
  readonly type: 'page';
  readonly page: string;
}

/** Frame -> host: the content's height in CSS pixels, rounded up. */
export interface FrameSizeMessage {
  readonly source: typeof frameSource.frame;
  readonly type: 'size';
  readonly height: number;
}

/** Frame -> host: a card event, to re-dispatch on the host element. */
export interface FrameEventMessage {
  readonly source: typeof frameSource.frame;
  readonly type: 'event';
  readonly name: CardEventName;
  readonly detail: FanPollEventDetail & Readonly<Record<string, string | FanPollEventDetail['tracking']>>;
}

/**
 * Either way: the fan's session with the proxy of origin `proxy` changed on that side (a card signed in, out or as
 * someone else). A hint only, with nothing else in it: a side whose cards use that proxy asks it again.
 */
export interface FrameSessionMessage {
  readonly source: (typeof frameSource)[keyof typeof frameSource];
  readonly type: 'session';
  readonly proxy: string;
}

/**
 * Either way: the fan's vote in a poll is known on that side (`vote-hint.ts`). A hint: the other side's cards show it
 * and read the fan's poll from the proxy to confirm it; it never casts a vote.
 */
export interface FrameVoteMessage {
  readonly source: (typeof frameSource)[keyof typeof frameSource];
  readonly type: 'vote';
  readonly hint: VoteHint;
}

export type FrameToHostMessage =
  FrameSizeMessage | FrameEventMessage | FrameSessionMessage | FrameVoteMessage;

/** A vote message from `source`, when `data` has exactly its shape: the hint in it, rebuilt. */
function readVoteMessage(data: unknown, source: string): VoteHint | undefined {
  return isRecord(data) &&
    hasOnlyKeys(data, ['source', 'type', 'hint']) &&
    data.source === source &&
    data.type === 'vote'
    ? readVoteHint(data.hint)
    : undefined;
}

/** The hint of the host's vote message, when `data` has exactly its shape. */
export function readHostVoteMessage(data: unknown): VoteHint | undefined {
  return readVoteMessage(data, frameSource.host);
}

/** Fields a card event's detail may carry besides the poll id and tracking; each a short string. */
const detailFields = [
  'phase',
  'answerId',
  'voteStatus',
  'stage',
  'via',
  'code',
  'message',
  'previousPollId',
  'link',
  'href',
  'url',
] as const;
const maxFrameHeight = 20_000;

export function isFrameHello(data: unknown): data is FrameHelloMessage {
  return (
    isRecord(data) &&
    hasOnlyKeys(data, ['source', 'type']) &&
    data.source === frameSource.host &&
    data.type === 'hello'
  );
}

/** The address in the host's page message, when `data` has exactly its shape and the address is on `hostOrigin`. */
export function readHostPageMessage(data: unknown, hostOrigin: string): string | undefined {
  if (
    !isRecord(data) ||
    !hasOnlyKeys(data, ['source', 'type', 'page']) ||
    data.source !== frameSource.host ||
    data.type !== 'page' ||
    !isShortString(data.page, returnUrlMaxLength)
  )
    return undefined;
  try {
    return new URL(data.page).origin === hostOrigin ? data.page : undefined;
  } catch {
    return undefined;
  }
}

/** The proxy origin of the host's session hint, when `data` has exactly its shape. */
export function readHostSessionMessage(data: unknown): string | undefined {
  return isRecord(data) &&
    hasOnlyKeys(data, ['source', 'type', 'proxy']) &&
    data.source === frameSource.host &&
    data.type === 'session'
    ? readOrigin(data.proxy)
    : undefined;
}

/** Validates a frame message and rebuilds it from known fields only (nothing unexpected is passed on). */
export function readFrameMessage(data: unknown): FrameToHostMessage | undefined {
  if (!isRecord(data) || data.source !== frameSource.frame) return undefined;
  if (data.type === 'session') {
    const proxy = hasOnlyKeys(data, ['source', 'type', 'proxy']) ? readOrigin(data.proxy) : undefined;
    return proxy ? { source: frameSource.frame, type: 'session', proxy } : undefined;
  }
  if (data.type === 'vote') {
    const hint = readVoteMessage(data, frameSource.frame);
    return hint ? { source: frameSource.frame, type: 'vote', hint } : undefined;
  }
  if (data.type === 'size') {
    const height = data.height;
    if (!hasOnlyKeys(data, ['source', 'type', 'height']) || typeof height !== 'number') return undefined;
    if (!Number.isFinite(height) || height < 0 || height > maxFrameHeight) return undefined;
    return { source: frameSource.frame, type: 'size', height: Math.ceil(height) };
  }
  if (data.type !== 'event' || !hasOnlyKeys(data, ['source', 'type', 'name', 'detail'])) return undefined;
  const name = cardEventNames.find((known) => known === data.name);
  const detail = data.detail;
  if (!name || !isRecord(detail) || !isShortString(detail.pollId, 100)) return undefined;
  if (!hasOnlyKeys(detail, ['pollId', 'tracking'], detailFields)) return undefined;
  const tracking = isRecord(detail.tracking) ? detail.tracking : {};
  if (!Object.keys(tracking).every((key) => (trackingParameterNames as readonly string[]).includes(key)))
    return undefined;
  const clean: Record<string, unknown> = {
    pollId: detail.pollId,
    tracking: cleanTracking(tracking),
  };
  for (const field of detailFields) {
    const value = detail[field];
    if (value === undefined) continue;
    if (!isShortString(value, 500)) return undefined;
    clean[field] = value;
  }
  return { source: frameSource.frame, type: 'event', name, detail: clean as FrameEventMessage['detail'] };
}
