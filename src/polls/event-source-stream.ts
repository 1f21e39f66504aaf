import { pollStreamPath } from '../contracts/poll-stream-contract.ts';
import {
  lastEventIdParam,
  pollEventName,
  readyEventName,
  type StreamReady,
} from '../contracts/poll-stream-contract.ts';
import type { Poll } from '../platform/types.ts';
import { requestableIds } from './poll-ids.ts';
import type { OpenPollStream } from './streaming-pacer.ts';

/** The browser's `EventSource`, as much of it as the stream uses (injectable: tests give their own). */
export interface EventSourceLike {
  addEventListener(type: string, listener: (event: MessageEvent<string>) => void): void;
  close(): void;
  readonly readyState: number;
}
export type EventSourceConstructor = new (
  url: string,
  init?: { withCredentials?: boolean },
) => EventSourceLike;

/**
 * The page's poll stream from the proxy (`pollStreamPath`), cookie-less like the poll reads. Each event's data is the
 * poll's read, turned into polls by `readPolls` (the card's lean check, or the platform's parser). Any error is a
 * failure: the browser's own reconnect (fixed delay, no jitter) is cut short, and the pacer reconnects with backoff,
 * the last event id in the URL (`lastEventIdParam`), as `Last-Event-ID` would carry it.
 */
export function eventSourcePollStream(
  proxyUrl: string,
  readPolls: (body: unknown) => readonly Poll[],
  Source: EventSourceConstructor | undefined = typeof EventSource === 'undefined' ? undefined : EventSource,
): OpenPollStream {
  return (ids, lastEventId, handlers) => {
    const wanted = requestableIds(ids).sort();
    if (Source === undefined || wanted.length === 0) {
      // No EventSource here (an old engine): the polls are read.
      handlers.failed();
      return { close: () => undefined };
    }
    const query = [
      ...wanted.map((id) => `ids[]=${id}`),
      ...(lastEventId === undefined ? [] : [`${lastEventIdParam}=${encodeURIComponent(lastEventId)}`]),
    ].join('&');
    const source = new Source(`${proxyUrl}${pollStreamPath}?${query}`, { withCredentials: false });
    let closed = false;
    const fail = () => {
      if (closed) return;
      closed = true;
      source.close();
      handlers.failed();
    };
    const parsed = (event: MessageEvent<string>): unknown => {
      try {
        return JSON.parse(event.data);
      } catch {
        return undefined;
      }
    };
    source.addEventListener(readyEventName, (event) => {
      const ready = parsed(event) as Partial<StreamReady> | undefined;
      if (Array.isArray(ready?.ids)) handlers.ready(ready.ids.filter((id) => typeof id === 'string'));
      else fail();
    });
    source.addEventListener(pollEventName, (event) => {
      const polls = readPolls(parsed(event));
      if (polls.length > 0) handlers.polls(polls, event.lastEventId);
    });
    source.addEventListener('error', fail);
    return {
      close: () => {
        closed = true;
        source.close();
      },
    };
  };
}
