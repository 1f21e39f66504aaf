import type { PlatformClient } from '../platform/client.ts';
import type { Poll } from '../platform/types.ts';
import type { FetchPolls } from './live-store.ts';
import { requestableIds } from './poll-ids.ts';

/**
 * The live store's poll source straight from the platform, for a host that provides its own token to a
 * `PlatformClient`. `limit` is the number of ids so that the platform's default page cannot drop any.
 */
export function fetchPollsFromPlatform(client: Pick<PlatformClient, 'listPolls'>): FetchPolls {
  return async (ids: readonly string[]): Promise<readonly Poll[]> => {
    const wanted = requestableIds(ids);
    if (wanted.length === 0) return [];
    return client.listPolls({ ids: wanted, limit: wanted.length });
  };
}
