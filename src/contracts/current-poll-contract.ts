/**
 * Which poll is a club's current one, as the partner proxy answers it from its cached list of the club's polls (the
 * rule: `src/polls/current-poll.ts`). Shared by the proxy (which serves it) and the card's `current` chunk (which asks
 * it). Here and not in `proxy-contract.ts` or `proxy-paths.ts`, whose tables ship in the card's first paint.
 */
import { pollsPath } from './proxy-paths.ts';

/**
 * GET `?partnerIds[]=<uuid>&partnerIds[]=<uuid>` -> `{ data: Poll | null }`: the current poll among those partners'
 * polls, or null when none is. Public, cached like a poll read.
 */
export const currentPollPath = `${pollsPath}/current`;

/** The query parameter that names a partner (the spec's list filter). */
export const currentPollPartnerParam = 'partnerIds[]';

/** Most partners one question may name (a card's `partner-ids`); more are refused. */
const maxCurrentPollPartners = 10;

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A card's `partner-ids` as the question takes them: uuids separated by spaces or commas, lower case, sorted and
 * without repeats (one cache entry per set of partners, whatever the order written). Undefined when a value is not a
 * uuid, or there are none or too many.
 */
export function partnerIdsOf(text: string | null | undefined): string[] | undefined {
  const ids = [
    ...new Set(
      (text ?? '')
        .split(/[\s,]+/)
        .filter(Boolean)
        .map((id) => id.toLowerCase()),
    ),
  ].sort();
  if (ids.length === 0 || ids.length > maxCurrentPollPartners || !ids.every((id) => uuid.test(id)))
    return undefined;
  return ids;
}

/** The question's path and query for these partners (`partnerIdsOf`'s list). */
export function currentPollUrl(partnerIds: readonly string[]): string {
  const query = partnerIds.map((id) => `${currentPollPartnerParam}=${encodeURIComponent(id)}`).join('&');
  return `${currentPollPath}?${query}`;
}
