import { isUuid } from '../platform/query.ts';

/**
 * The ids worth asking for: uuids only, lower-cased, each once. Both the proxy and the platform refuse a whole list
 * with one bad id, so a card with a mistyped id must not break every other card's read; its poll simply comes back
 * missing and that card shows `not_found`.
 */
export function requestableIds(ids: readonly string[]): string[] {
  return [...new Set(ids.filter((id) => isUuid(id)).map((id) => id.toLowerCase()))];
}
