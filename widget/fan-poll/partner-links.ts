/**
 * The partner's links on a card, from its attributes: the next step after the vote (`next-href`), where a fan gets the
 * club's tokens (`get-tokens-href`), and where anyone checks a result on its chain (`verify-href`, a template of the
 * poll's `blockchainAddress`). Lit does not sanitise URLs: only `https:` (and `http:` on loopback) reach an `href`,
 * anything else is dropped with a console warning, so `javascript:` and `data:` links are never rendered.
 */
import { isLoopbackHost } from '../../src/contracts/loopback.ts';
import { appendTracking, type TrackingParameters } from '../../src/contracts/tracking.ts';

/** Every attribute of the partner's links, in the order a snippet writes them (the banner passes them on as they are). */
export const partnerLinkAttributes = ['next-href', 'next-label', 'get-tokens-href', 'verify-href'] as const;
export type PartnerLinkSetting = (typeof partnerLinkAttributes)[number];

/** The attributes that carry a link. */
export type PartnerLinkAttribute = 'next-href' | 'get-tokens-href' | 'verify-href';

/** Where the poll's address goes in a `verify-href` template, URL-encoded. */
const addressPlaceholder = '{address}';

/** Warned once per element and attribute value (a card renders often). */
const warned = new WeakMap<Element, Set<string>>();

/** `value` as a link a card may render: `https:`, or `http:` on loopback, and no credentials in it. */
export function safeLinkUrl(value: string): URL | undefined {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return undefined;
  }
  if (url.username !== '' || url.password !== '') return undefined;
  if (url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname))) return url;
  return undefined;
}

/**
 * The link an attribute of `card` gives, or undefined (unset, or refused with a warning). `next-href` carries the
 * card's tracking parameters; `verify-href` is its template filled with `address` (undefined when there is none).
 */
export function partnerLink(
  card: Element,
  attribute: PartnerLinkAttribute,
  context: { readonly tracking: TrackingParameters; readonly address?: string | undefined },
): string | undefined {
  const value = card.getAttribute(attribute);
  if (value === null || value.trim() === '') return undefined;
  let candidate = value;
  if (attribute === 'verify-href') {
    if (!value.includes(addressPlaceholder)) {
      warnOnce(card, attribute, value, `it has no ${addressPlaceholder}`);
      return undefined;
    }
    if (!context.address) return undefined;
    candidate = value.replaceAll(addressPlaceholder, encodeURIComponent(context.address));
  }
  const url = safeLinkUrl(candidate);
  if (!url) {
    warnOnce(card, attribute, value, 'only https: links (and http: on loopback) are used');
    return undefined;
  }
  if (attribute === 'next-href') appendTracking(url.searchParams, context.tracking);
  return url.href;
}

function warnOnce(card: Element, attribute: string, value: string, why: string): void {
  let seen = warned.get(card);
  if (!seen) warned.set(card, (seen = new Set()));
  const key = `${attribute}=${value}`;
  if (!seen.has(key)) {
    seen.add(key);
    console.warn(`Fan Polls: ${attribute} is ignored: ${why}.`, card);
  }
}
