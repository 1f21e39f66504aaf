import { cardEventNames, type CardEventName } from '../events/card-event-names.ts';
import { cleanTracking, trackingParameterNames } from '../../src/contracts/tracking.ts';
import type { FanPollEventDetail } from '../events/event-detail.ts';
import { hasOnlyKeys, isShortString } from '../messages/shape.ts';
import { isRecord } from '../../src/contracts/is-record.ts';

/** Messages between the iframe page and its host loader. Each side checks origin, source window and shape. */
export const frameSource = { frame: 'fan-polls-frame', host: 'fan-polls-host' } as const;

/** Host -> frame, once the iframe loaded: pins the origin the frame answers to. */
export interface FrameHelloMessage {
  readonly source: typeof frameSource.host;
  readonly type: 'hello';
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

export type FrameToHostMessage = FrameSizeMessage | FrameEventMessage | FrameSessionMessage;

/** Fields a card event's detail may carry besides the poll id and tracking; each a short string. */
const detailFields = ['phase', 'answerId', 'voteStatus', 'stage', 'via', 'code', 'message'] as const;
const maxFrameHeight = 20_000;

export function isFrameHello(data: unknown): data is FrameHelloMessage {
  return (
    isRecord(data) &&
    hasOnlyKeys(data, ['source', 'type']) &&
    data.source === frameSource.host &&
    data.type === 'hello'
  );
}

/** An http(s) origin exactly as `URL` writes one (`https://polls.club.example`), else undefined. */
function readOrigin(value: unknown): string | undefined {
  if (!isShortString(value, 200)) return undefined;
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value
      ? value
      : undefined;
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
