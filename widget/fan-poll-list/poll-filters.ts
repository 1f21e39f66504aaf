import type { ListFilterName, ListIdName } from './list-attributes.ts';

/** The query parameter each filter attribute of `<fan-poll-list>` becomes. */
const listFilterAttributes: Readonly<Record<ListFilterName, string>> = {
  search: 'search',
  'quorum-reached': 'quorumReached',
  bound: 'bound',
  'disclosed-from': 'disclosedAt[from]',
  'disclosed-to': 'disclosedAt[to]',
  'published-from': 'publicationDate[from]',
  'published-to': 'publicationDate[to]',
  'open-from': 'openAt[from]',
  'open-to': 'openAt[to]',
  'close-from': 'closeAt[from]',
  'close-to': 'closeAt[to]',
  page: 'page',
  limit: 'limit',
  'order-by': 'orderBy',
  direction: 'direction',
};

/** Attributes holding lists of ids (space or comma separated). */
const listIdAttributes: Readonly<Record<ListIdName, string>> = {
  'partner-ids': 'partnerIds[]',
  ids: 'ids[]',
};

const maxValueLength = 200;

/** The proxy query for an element's filter attributes; unknown attributes and oversized values are ignored. */
export function listQuery(attribute: (name: string) => string | null): URLSearchParams {
  const query = new URLSearchParams();
  for (const [name, parameter] of Object.entries(listFilterAttributes)) {
    const value = attribute(name)?.trim();
    if (value && value.length <= maxValueLength) query.set(parameter, value);
  }
  for (const [name, parameter] of Object.entries(listIdAttributes)) {
    for (const id of (attribute(name) ?? '').split(/[\s,]+/)) {
      if (id && id.length <= 100) query.append(parameter, id);
    }
  }
  return query;
}
