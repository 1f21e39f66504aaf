import { pollsPath } from '../contracts/proxy-paths.ts';
import { requestableIds } from './poll-ids.ts';

/**
 * The proxy's batched read of these polls, `/api/polls?ids[]=...&limit=n` (after the proxy's URL), or undefined when no
 * id is worth asking for. Ids are sorted so that every page asking for the same polls asks with the same URL (one CDN
 * entry); `limit` is the number of ids, because a list answer is paged and the default page could drop some of them.
 */
export function proxyPollsPath(ids: readonly string[]): string | undefined {
  const wanted = requestableIds(ids).sort();
  if (wanted.length === 0) return undefined;
  const query = [...wanted.map((id) => `ids[]=${id}`), `limit=${wanted.length}`].join('&');
  return `${pollsPath}?${query}`;
}
