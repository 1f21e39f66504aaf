import type { FetchLike } from '../../src/platform/http.ts';
import type { Poll } from '../../src/platform/types.ts';
import { fetchPollsFromProxy } from '../../src/polls/proxy-source.ts';
import { readCardPolls } from '../store/card-polls.ts';
import { readProxyUrl } from '../store/widget-config.ts';

/**
 * One poll as a card reads it, from the partner proxy's public read (`/api/polls`, cached by the proxy and its CDN),
 * for a server about to render the card; undefined when the proxy knows no such poll. Rejects when the proxy cannot
 * be read (its coded error): render the card without data then, it reads the poll in the browser.
 */
export async function readPoll(proxy: string, pollId: string, fetch?: FetchLike): Promise<Poll | undefined> {
  const proxyUrl = readProxyUrl(proxy);
  if (!proxyUrl) throw new TypeError(`Fan Polls: "${proxy}" is not an http(s) URL of a partner proxy.`);
  const polls = await fetchPollsFromProxy(proxyUrl, readCardPolls, fetch)([pollId]);
  return polls.find((poll) => poll.id === pollId);
}
