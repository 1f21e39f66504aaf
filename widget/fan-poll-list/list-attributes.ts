/** The spec's list filters, as attributes of `<fan-poll-list>` (what each becomes in the query: `poll-filters.ts`). */
export const listFilterNames = [
  'search',
  'quorum-reached',
  'bound',
  'disclosed-from',
  'disclosed-to',
  'published-from',
  'published-to',
  'open-from',
  'open-to',
  'close-from',
  'close-to',
  'page',
  'limit',
  'order-by',
  'direction',
] as const;
export type ListFilterName = (typeof listFilterNames)[number];

/** Attributes holding lists of ids (space or comma separated). */
export const listIdNames = ['partner-ids', 'ids'] as const;
export type ListIdName = (typeof listIdNames)[number];
