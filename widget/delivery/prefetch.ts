import { proxyPollsPath } from '../../src/polls/proxy-polls-path.ts';
import { nearViewportPx } from '../controllers/near-viewport.ts';

/** A batched poll read an entry started before the element code arrived, for the page's live store to use. */
export interface PollPrefetch {
  /** The read's URL (`proxyPollsPath`): the store takes it for any read of a subset of its ids. */
  readonly url: string;
  /** When it started (`Date.now()`): the store takes it only while it is as fresh as the proxy's own cache. */
  readonly at: number;
  readonly response: Promise<Response>;
}

/**
 * Starts the page's first poll read at once, with the same URL and timeout as the live store's reads (one CDN entry),
 * so that data and element code travel in parallel. Undefined when no id is worth asking for. Exactly the request of
 * the recommended snippet's `<link rel="preload" as="fetch" crossorigin="anonymous">` (`embed-snippet.ts`), which
 * Chromium hands over only when headers and credentials mode match: no header, and fetch's default credentials mode
 * (`same-origin`, what `anonymous` means; `omit` matches no preload), so no cookie goes to a proxy on another origin.
 */
export function prefetchPolls(
  proxyUrl: string | undefined,
  ids: readonly string[],
): PollPrefetch | undefined {
  const path = proxyPollsPath(ids);
  if (proxyUrl === undefined || path === undefined) return undefined;
  const url = `${proxyUrl.replace(/\/+$/, '')}${path}`;
  const response = fetch(url, {
    signal: AbortSignal.timeout(10_000),
  });
  // Read (or failed) later by the store; never an unhandled rejection in the host page.
  response.catch(() => undefined);
  return { url, at: Date.now(), response };
}

/**
 * The poll ids of the cards in the page's markup (parsed before a module script runs) that will read at once: those
 * near the viewport (`nearViewportPx`, as `LivePollController` watches them) and the `eager` ones. The others read
 * when they come near, so the first answer carries only what the first paint shows.
 */
export function pollIdsToPrefetch(root: ParentNode, viewportHeight: number): string[] {
  return [...root.querySelectorAll('fan-poll[poll-id]')]
    .filter((card) => {
      if (card.hasAttribute('eager')) return true;
      const box = card.getBoundingClientRect();
      return box.top < viewportHeight + nearViewportPx && box.bottom > -nearViewportPx;
    })
    .map((card) => card.getAttribute('poll-id') ?? '');
}
