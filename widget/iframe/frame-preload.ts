import { escapeHtml } from '../../src/contracts/html-escape.ts';
import { proxyPollsPath } from '../../src/polls/proxy-polls-path.ts';

/** Where the iframe page's head takes its poll's preload: the server that sends the page fills it in. */
export const framePreloadSlot = '<!-- fan-polls-poll-preload -->';

/**
 * The iframe page with its poll's read preloaded: the same request `frame-page.ts` then starts (`prefetchPolls`, the
 * page's proxy and its `?poll=` id, no header, default credentials), so that the read starts with the page instead of
 * after its script. The page unchanged when the id is not worth a read.
 */
export function withPollPreload(page: string, proxyUrl: string, pollId: string | undefined): string {
  const path = proxyPollsPath(pollId ? [pollId] : []);
  if (path === undefined) return page;
  const href = `${proxyUrl.replace(/\/+$/, '')}${path}`;
  return page.replace(
    framePreloadSlot,
    `<link rel="preload" as="fetch" crossorigin="anonymous" href="${escapeHtml(href)}" />`,
  );
}
