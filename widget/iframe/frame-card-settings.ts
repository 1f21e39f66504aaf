import { isLanguageTag } from '../../src/contracts/drawn-card-contract.ts';
import { trackingParameterNames, type TrackingParameterName } from '../../src/contracts/tracking.ts';
import type { ResultsSetting } from '../fan-poll/fan-poll.ts';
import { partnerLinkAttributes } from '../fan-poll/partner-links.ts';

/** The partner's links a banner passes on to its card, under the attributes' own names in the iframe page's URL. */
export const frameLinkNames = partnerLinkAttributes;

/** The banner's card as its iframe page's URL sets it: what the page's script and the proxy's render both read. */
export interface FrameCardSettings extends Partial<Record<TrackingParameterName, string>> {
  readonly pollId: string;
  /** A `current` banner: the clubs (`partner-ids`) whose current poll it shows, instead of a poll id. */
  readonly currentOf?: string;
  /** The page's language, when the URL gives a well-formed tag. */
  readonly lang?: string;
  readonly theme?: 'light' | 'dark' | 'auto';
  readonly transparent: boolean;
  readonly results?: ResultsSetting;
  /** The partner's links, as given (the card checks them as it does its attributes). */
  readonly links: Partial<Record<(typeof frameLinkNames)[number], string>>;
}

/**
 * The card's settings from the iframe page's query (`?poll=<id>&theme=dark&...`, or `?current=<partner ids>&...`): the
 * known values only; tracking parameters and partner ids as given (the card validates them like any attribute).
 */
export function frameCardSettings(params: URLSearchParams): FrameCardSettings {
  const lang = params.get('lang');
  const theme = params.get('theme');
  const results = params.get('results');
  const tracking: Partial<Record<TrackingParameterName, string>> = {};
  for (const key of trackingParameterNames) {
    const value = params.get(key);
    if (value !== null) tracking[key] = value;
  }
  const links: FrameCardSettings['links'] = {};
  for (const key of frameLinkNames) {
    const value = params.get(key);
    if (value) links[key] = value;
  }
  return {
    pollId: params.get('poll') ?? '',
    ...(params.has('current') ? { currentOf: params.get('current') ?? '' } : {}),
    ...(lang && isLanguageTag(lang) ? { lang } : {}),
    ...(theme === 'dark' || theme === 'light' || theme === 'auto' ? { theme } : {}),
    transparent: params.get('transparent') === '1',
    ...(results === 'after-vote' || results === 'after-close' ? { results } : {}),
    links,
    ...tracking,
  };
}
