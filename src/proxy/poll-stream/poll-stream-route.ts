import type { Context, Handler } from 'hono';
import {
  lastEventIdParam,
  pollEventName,
  pollVersion,
  readyEventName,
  streamEventId,
  type StreamReady,
  versionsOfEventId,
} from '../../contracts/poll-stream-contract.ts';
import { checkUuid } from '../../platform/query.ts';
import { allowedOriginOf } from '../cors.ts';
import { ProxyError } from '../errors.ts';
import { noSniffHeader } from '../every-answer.ts';
import { requestIdHeader } from '../operations/access-log.ts';
import { checkedInput } from '../request-guards.ts';
import type { ProxyRuntime } from '../runtime.ts';
import type { CachedAnswer } from '../response-cache.ts';
import { PollStreamHub, type PollStreamHubOptions } from './poll-stream-hub.ts';

/** A comment line this often keeps a quiet stream open through load balancers that close idle connections. */
const keepAliveMs = 25_000;
/** What a browser waits before it reconnects by itself (the widget closes and reconnects with its own backoff). */
const browserRetryMs = 5000;

const hubs = new WeakMap<ProxyRuntime, PollStreamHub>();

/** The poll streams' hub of an app (tests and metrics read its figures); undefined where streams are off. */
export function pollStreamHubOf(runtime: ProxyRuntime): PollStreamHub | undefined {
  return hubs.get(runtime);
}

/**
 * `GET /api/polls/stream?ids[]=a&ids[]=b`: Server-Sent Events of the polls' copies (`poll-stream-contract.ts`), the
 * current ones at once (those a `Last-Event-ID` names are skipped), then each new copy the moment this instance has
 * it (`PollStreamHub`). Public and cookie-less like the poll reads: CORS for the allowed pages, a page of another
 * origin refused outright (it would hold a stream for nothing). Never cached (`no-store`, and
 * `X-Accel-Buffering: no` for nginx). At a cap (streams per instance or per client address), or where the state has
 * no publish and subscribe, 503 `streams_full`: the page reads the polls instead. Past the polls-per-stream cap, the
 * first polls (in id order) are streamed and the page reads the rest.
 */
export function pollStreamHandler(runtime: ProxyRuntime, reads: PollStreamHubOptions): Handler {
  const fanOut = runtime.state.fanOut;
  const hub = fanOut === undefined ? undefined : new PollStreamHub(runtime, fanOut, reads);
  if (hub !== undefined) hubs.set(runtime, hub);

  return async (c) => {
    const origin = c.req.header('Origin');
    const allowedOrigin = allowedOriginOf(c, runtime.isAllowedPage);
    if (origin !== undefined && allowedOrigin === undefined)
      throw new ProxyError('origin_not_allowed', 'This origin may not read the proxy’s poll stream.');
    const ids = streamedIds(c, runtime.config.streamPollsMax);
    // A HEAD holds no stream (its body would never be read).
    if (c.req.method === 'HEAD')
      return new Response(null, { status: 200, headers: streamHeaders(c, allowedOrigin) });
    const release = hub?.admit(runtime.clientAddress(c));
    if (hub === undefined || release === undefined) {
      throw new ProxyError('streams_full', 'No live stream now: read the polls instead.', {
        retryAfterSeconds: runtime.config.pollCacheSeconds,
      });
    }
    const streamed = await withinMissLimit(runtime, c, hub, ids);
    const lastEventId = c.req.header('Last-Event-ID') ?? c.req.query(lastEventIdParam);
    const headers = streamHeaders(c, allowedOrigin);
    const body = eventStream(hub, streamed, versionsOfEventId(lastEventId, streamed.length), release, c);
    return new Response(body, { status: 200, headers });
  };
}

/** An event stream's headers: never cached, never buffered, CORS for an allowed page. */
function streamHeaders(c: Context, allowedOrigin: string | undefined): Headers {
  const headers = new Headers({
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-store',
    'X-Accel-Buffering': 'no',
    Vary: 'Origin',
    [requestIdHeader]: c.get('requestId'),
    [noSniffHeader.name]: noSniffHeader.value,
  });
  if (allowedOrigin !== undefined) headers.set('Access-Control-Allow-Origin', allowedOrigin);
  return headers;
}

/** The stream's polls: checked UUIDs, lower case, once each, sorted (the event id's order), at most `max`. */
function streamedIds(c: Context, max: number): string[] {
  const asked = new URL(c.req.url).searchParams.getAll('ids[]');
  const ids = checkedInput(() => asked.map((id) => checkUuid(id, 'ids[]').toLowerCase()));
  const unique = [...new Set(ids)].sort();
  if (unique.length === 0) throw new ProxyError('invalid_filter', 'Name at least one poll: ids[]=<uuid>.');
  return unique.slice(0, max);
}

/**
 * The polls a stream may carry: those watched already, and new ones while the client's budget of public cache misses
 * lasts (a poll no stream watches costs a platform read per window, as a cache miss does); the page reads the others,
 * under the same budget. When the shared counter does not answer, the stream carries them all.
 */
async function withinMissLimit(
  runtime: ProxyRuntime,
  c: Context,
  hub: PollStreamHub,
  ids: readonly string[],
): Promise<string[]> {
  const client = runtime.clientAddress(c);
  const carried: string[] = [];
  for (const id of ids) {
    const refusedFor = hub.isWatched(id)
      ? undefined
      : await runtime.state.publicMissLimiter.take(client).catch(() => undefined);
    if (refusedFor === undefined) carried.push(id);
  }
  return carried;
}

const encoder = new TextEncoder();
/** Per copy, its events' bytes by event id, at most `sharedEventsPerCopy` of them. */
const pollEvents = new WeakMap<CachedAnswer, Map<string, Uint8Array>>();
/**
 * Event ids one copy keeps the bytes of: streams of the same polls (the same id) share one array, so a change to
 * thousands of streams encodes its copy once instead of once a stream.
 */
const sharedEventsPerCopy = 64;

/** The bytes of the event that carries `copy` with `eventId`, encoded once for every stream that sends the same. */
function pollEventBytes(copy: CachedAnswer, eventId: string): Uint8Array {
  let byId = pollEvents.get(copy);
  if (byId === undefined) {
    byId = new Map();
    pollEvents.set(copy, byId);
  }
  const kept = byId.get(eventId);
  if (kept !== undefined) return kept;
  const bytes = encoder.encode(`event: ${pollEventName}\nid: ${eventId}\ndata: ${copy.body}\n\n`);
  if (byId.size < sharedEventsPerCopy) byId.set(eventId, bytes);
  return bytes;
}

/** The event stream: each poll's copy when its version differs from the last sent, and keep-alive comments. */
function eventStream(
  hub: PollStreamHub,
  ids: readonly string[],
  versions: (string | undefined)[],
  release: () => void,
  c: Context,
): ReadableStream<Uint8Array> {
  const ends: (() => void)[] = [];
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    for (const stop of ends) stop();
    release();
  };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      /** Whether `text` went into the stream (not once it ended). */
      const send = (text: string | Uint8Array): boolean => {
        if (ended) return false;
        try {
          controller.enqueue(typeof text === 'string' ? encoder.encode(text) : text);
          return true;
        } catch {
          end();
          return false;
        }
      };
      const ready: StreamReady = { ids };
      send(`retry: ${String(browserRetryMs)}\nevent: ${readyEventName}\ndata: ${JSON.stringify(ready)}\n\n`);
      ids.forEach((id, index) => {
        ends.push(
          hub.watch(id, (_pollId, copy) => {
            const version = pollVersion(copy.etag);
            if (versions[index] === version) return;
            versions[index] = version;
            if (send(pollEventBytes(copy, streamEventId(versions)))) hub.eventsSent += 1;
          }),
        );
      });
      const keepAlive = setInterval(() => {
        send(':\n\n');
      }, keepAliveMs);
      ends.push(() => {
        clearInterval(keepAlive);
      });
      const signal = c.req.raw.signal;
      const aborted = () => {
        end();
        try {
          controller.close();
        } catch {
          // Already closed by the reader's cancel.
        }
      };
      // The page may have gone while the stream was being set up.
      if (signal.aborted) {
        aborted();
        return;
      }
      signal.addEventListener('abort', aborted, { once: true });
      ends.push(() => {
        signal.removeEventListener('abort', aborted);
      });
    },
    cancel() {
      end();
    },
  });
}
