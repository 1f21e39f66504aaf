/**
 * The live poll stream's wire facts, shared by the proxy (which sends it) and the page's live store (which reads it):
 * `GET pollStreamPath?ids[]=a&ids[]=b` answers `text/event-stream` with a `ready` event, one `poll` event per poll
 * at once, then one per new copy. An event's data is the poll's read (`{ data: Poll }`); its id is the version of every poll of the
 * stream, so a reconnect (`Last-Event-ID`, or `lastEventIdParam` for a page that reconnects by itself) is sent only
 * the polls that changed meanwhile.
 */

/**
 * GET `?ids[]=a&ids[]=b` -> `text/event-stream`: a `ready` event, one `poll` event per poll at once, then one per new
 * copy. Public, never cached; refused (503 `streams_full`) at a cap, and the page reads `/api/polls` instead. Here and
 * not in `proxy-contract.ts` or `proxy-paths.ts`, whose tables ship in the card's first paint: only the stream's chunk
 * and the proxy need it.
 */
export const pollStreamPath = '/api/polls/stream';

/** The event that carries one poll's copy. */
export const pollEventName = 'poll';

/**
 * The stream's first event, sent at once: its data `{ "ids": [...] }` names the polls the stream carries (those past
 * the proxy's cap are not: the page reads them). A page that does not get it soon is behind a network that buffers
 * the stream, and reads the polls instead.
 */
export const readyEventName = 'ready';

/** The `ready` event's data. */
export interface StreamReady {
  readonly ids: readonly string[];
}

/** The query parameter that carries the last event id on a reconnect the page makes itself (EventSource sends no headers). */
export const lastEventIdParam = 'lastEventId';

/** A poll's version in an event id: the start of its ETag (enough to tell copies apart, short enough for 50 polls). */
export function pollVersion(etag: string): string {
  return etag.replace(/[^A-Za-z0-9_-]/g, '').slice(0, 10);
}

/** No copy sent yet. */
const unsent = '-';

/** The event id: the versions of the stream's polls in its order (the polls' ids sorted), joined by dots. */
export function streamEventId(versions: readonly (string | undefined)[]): string {
  return versions.map((version) => version ?? unsent).join('.');
}

/** The versions an event id names, by position; undefined where none was sent (or the id is not one). */
export function versionsOfEventId(eventId: string | null | undefined, count: number): (string | undefined)[] {
  const parts = eventId === null || eventId === undefined || eventId === '' ? [] : eventId.split('.');
  if (parts.length !== count) return Array.from({ length: count }, () => undefined);
  return parts.map((part) => (part === unsent || !/^[A-Za-z0-9_-]{1,10}$/.test(part) ? undefined : part));
}
