/**
 * How the documents of one page tell each other that the fan's session with a proxy changed. Only a hint crosses: the
 * proxy's origin, never a token nor who signed in; whoever hears it asks the proxy again (`GET /auth/session`).
 * - `sessionChangedEvent` (window, `detail`: the proxy's origin): a card of this document signed in, out or as
 *   someone else. The iframe host loader passes it on to its banners, the banner page to its host.
 * - `sessionCheckEvent` (window, same `detail`): a bridge heard of a change elsewhere; this document's session re-reads.
 * - `sessionChannelName`: a BroadcastChannel between the documents of one origin (other tabs, same-origin frames).
 */
export const sessionChangedEvent = 'fan-polls:session-changed';
export const sessionCheckEvent = 'fan-polls:session-check';
export const sessionChannelName = 'fan-polls:session';

/** The proxy origin a session event's `detail` names, when it is one. */
export function sessionEventOrigin(event: Event): string | undefined {
  const detail = (event as CustomEvent<unknown>).detail;
  return typeof detail === 'string' && detail.length <= 200 ? detail : undefined;
}
