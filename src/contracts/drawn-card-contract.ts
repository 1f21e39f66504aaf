/**
 * A card drawn by the proxy: `GET /api/polls/:pollId/card?lang=&results=` answers the
 * `<fan-poll>` as HTML, its markup in a declarative shadow root, drawn with the proxy's cached read of the poll;
 * `GET /api/polls/current/card?partnerIds[]=&lang=&results=` draws a `current` card with the clubs' current poll,
 * picked from the proxy's cached list of their polls. The recommended snippet preloads that URL and the script-tag
 * entry paints from it, then hydrates the card. One owner for the URL, shared by the entry (which asks for it), the
 * configurator (which preloads it) and the proxy (which reads it): the preload is reused only when its URL is exactly
 * the one the entry asks for.
 */
import { currentPollPartnerParam, currentPollPath } from './current-poll-contract.ts';
import { pollsPath } from './proxy-paths.ts';

/**
 * What a drawn card's markup depends on besides its poll: the card's attributes that change its words. (`theme` and
 * `transparent` are styles of the page's own element, which keeps its attributes; tracking values are not drawn.)
 */
export interface DrawnCardSettings {
  /** The card's own `lang` (a language tag); the proxy draws it in English when absent. */
  readonly lang?: string | null | undefined;
  /** `after-vote` or `after-close`; any other value is the default (`always`). */
  readonly results?: string | null | undefined;
  /** A `current` card's `partner-ids`, as the card writes them (the proxy reads them as `partnerIdsOf` does). */
  readonly partnerIds?: string | null | undefined;
}

const resultsSettings = ['after-vote', 'after-close'] as const;

/** A drawn card's settings as the proxy read them from its URL: known values only, what the render takes. */
export interface DrawnCardQuery {
  readonly lang?: string | undefined;
  readonly results?: (typeof resultsSettings)[number] | undefined;
}

const isResultsSetting = (value: string | null | undefined): value is (typeof resultsSettings)[number] =>
  (resultsSettings as readonly (string | null | undefined)[]).includes(value);

/** The route as the proxy's router matches it. */
export const drawnCardPattern = `${pollsPath}/:pollId/card`;

/** A `current` card's route (before `drawnCardPattern`, whose `:pollId` would take `current`). */
export const drawnCurrentCardPath = `${currentPollPath}/card`;

/** A language tag's shape (RFC 5646's common form), as a card's settings in a URL take it (else no language). */
export function isLanguageTag(value: string): boolean {
  return /^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$/.test(value);
}

/**
 * The drawn card's path and query for `pollId` (not encoded twice: a poll id is a UUID), or for a `current` card when
 * `pollId` is null: `drawnCardPathOf` of a card with these attributes.
 */
export function drawnCardPath(pollId: string | null, settings: DrawnCardSettings): string {
  const attributes: Partial<Record<string, string | null>> = {
    'poll-id': pollId,
    'partner-ids': settings.partnerIds,
    lang: settings.lang,
    results: settings.results,
  };
  return drawnCardPathOf((name) => attributes[name]);
}

/**
 * The drawn card's path and query for a `<fan-poll>` with these attributes: by its `poll-id`, else (a `current` card)
 * by its `partner-ids`, in one canonical order and with only the settings that differ from the card's defaults
 * (`results` a known value), so that a page's preload and the entry's request are one URL and one cache entry. The
 * entry reads them off the page's element (`widget/delivery/drawn-cards.ts`), the configurator off the element it
 * writes.
 */
export function drawnCardPathOf(attribute: (name: string) => string | null | undefined): string {
  const pollId = attribute('poll-id');
  const lang = attribute('lang');
  const results = attribute('results');
  const query = new URLSearchParams();
  // As written: the page's element and its preload carry the same text, which the proxy checks (`partnerIdsOf`).
  if (!pollId) query.set(currentPollPartnerParam, attribute('partner-ids') ?? '');
  // As given: the proxy draws only a well-formed tag (`drawnCardSettings`), and a page preloads only what it writes.
  if (lang) query.set('lang', lang);
  if (isResultsSetting(results)) query.set('results', results);
  const search = query.toString();
  const card = pollId ? `${pollsPath}/${encodeURIComponent(pollId)}/card` : drawnCurrentCardPath;
  return `${card}${search ? `?${search}` : ''}`;
}

/** The settings of a drawn card's query, the known values only (what `drawnCardPath` writes). */
export function drawnCardSettings(params: URLSearchParams): DrawnCardQuery {
  const lang = params.get('lang') ?? '';
  const results = params.get('results');
  return {
    lang: isLanguageTag(lang) ? lang : undefined,
    results: isResultsSetting(results) ? results : undefined,
  };
}
