import { trackingParameterNames, type TrackingParameterName } from '../../src/contracts/tracking.ts';
import { escapeHtml } from '../../src/contracts/html-escape.ts';
import { proxyPollsPath } from '../../src/polls/proxy-polls-path.ts';
import { drawnCardPathOf } from '../../src/contracts/drawn-card-contract.ts';
import { hydrateFileName } from '../ssr/hydrate-file-name.ts';
import { partnerLinkAttributes, type PartnerLinkSetting } from '../fan-poll/partner-links.ts';

/** What the partner chose in the configurator. */
export interface EmbedChoice {
  readonly embed: 'card' | 'list' | 'banner';
  /** The partner proxy's public URL, no trailing slash. */
  readonly proxyUrl: string;
  /** The widget version the proxy serves: the snippet pins it. */
  readonly version: string;
  readonly pollId: string;
  /** The poll's club, for the list (`partner-ids`). */
  readonly partnerId: string;
  readonly theme: 'light' | 'dark' | 'auto';
  /** Who sees an open poll's shares; `always` (the default) writes no attribute. */
  readonly results: 'always' | 'after-vote' | 'after-close';
  /** Empty: the page's own language. */
  readonly lang: string;
  /** The height kept before the card has data, in CSS pixels (no layout shift). */
  readonly minHeight: number;
  /**
   * The height to keep on a phone (a viewport up to `narrowViewport` wide), where answers wrap and the card is taller;
   * undefined: `minHeight` everywhere. The configurator measures both from its preview.
   */
  readonly narrowMinHeight?: number | undefined;
  /** The widest the embed gets, in CSS pixels; 0: the width of its container. */
  readonly maxWidth: number;
  readonly tracking: Readonly<Partial<Record<TrackingParameterName, string>>>;
  /** A card or banner that follows its club's current poll (`current partner-ids`) instead of naming the poll. */
  readonly current?: boolean | undefined;
  /** The partner's links, by attribute (`next-href`, `next-label`, `get-tokens-href`, `verify-href`); empty: none. */
  readonly links?: Readonly<Partial<Record<PartnerLinkName, string>>> | undefined;
  /**
   * The element code the entry imports, paths under the pinned widget folder (`version.json`'s `scriptTagCard` after
   * `fan-polls.js`): the card's snippet preloads them. Empty: only the entry is preloaded.
   */
  readonly elementCode?: readonly string[];
}

export interface EmbedSnippet {
  /** Where the embed goes in the page's HTML. */
  readonly html: string;
  /** One rule for the page's own stylesheet (no inline style: it works under a strict `style-src`). */
  readonly css: string;
}

/** The widest viewport the narrow height is for (phones), and the width the configurator measures it at. */
const narrowViewport = 480;
export const narrowMeasureWidth = 360;

const tags = { card: 'fan-poll', list: 'fan-poll-list', banner: 'fan-poll-frame' } as const;

/** The partner's links a card or banner takes, in the order the snippet writes them. */
export const partnerLinkNames = partnerLinkAttributes;
export type PartnerLinkName = PartnerLinkSetting;

/** Boolean attributes, written present with no value. */
const booleanAttributes = new Set(['current']);

/** The element's tag and its attributes for `choice` (the snippet writes them; the live preview sets them). */
export function embedElement(choice: EmbedChoice): { tag: string; attributes: [string, string][] } {
  const following = choice.embed !== 'list' && choice.current === true;
  const poll: [string, string][] =
    choice.embed === 'list'
      ? [
          ['partner-ids', choice.partnerId],
          ['limit', '6'],
        ]
      : following
        ? [
            ['current', ''],
            ['partner-ids', choice.partnerId],
          ]
        : [['poll-id', choice.pollId]];
  const attributes: [string, string][] = [
    ...poll,
    ['theme', choice.theme],
    ['results', choice.results === 'always' ? '' : choice.results],
    ['lang', choice.lang],
    ...(choice.embed === 'list'
      ? []
      : partnerLinkNames.map((key): [string, string] => [key, choice.links?.[key]?.trim() ?? ''])),
    ...trackingParameterNames.map((key): [string, string] => [key, choice.tracking[key]?.trim() ?? '']),
  ];
  return {
    tag: tags[choice.embed],
    attributes: attributes.filter(([name, value]) => value !== '' || booleanAttributes.has(name)),
  };
}

/**
 * The head lines that let a script-tag card's code and data start with the HTML (docs/embedding.md, "Recommended"):
 * `modulepreload` for the entry and the element code it imports, and the batched poll read exactly as
 * `widget/delivery/prefetch.ts` then asks for it (same URL, ids sorted, `credentials: 'omit'`, hence
 * `crossorigin="anonymous"`), so that the browser hands the preloaded answer to that request. `pollIds` are the
 * page's `eager` cards (the entry reads them at once, wherever they are).
 */
export function preloadLines(
  proxyUrl: string,
  version: string,
  pollIds: readonly string[],
  elementCode: readonly string[] = [],
): string[] {
  const path = proxyPollsPath(pollIds);
  return headLines(proxyUrl, version, elementCode, path);
}

/**
 * `modulepreload` for the entry and `modules` (under the pinned widget folder), then, given a proxy path, its read
 * preloaded as the entry's `fetch` asks for it (`crossorigin="anonymous"`: fetch's default credentials mode).
 */
function headLines(
  proxyUrl: string,
  version: string,
  modules: readonly string[],
  fetchPath: string | undefined,
): string[] {
  const base = `${proxyUrl}/widget/v${version}`;
  return [
    ...['fan-polls.js', ...modules].map(
      (file) => `<link rel="modulepreload" href="${escapeHtml(`${base}/${file}`)}">`,
    ),
    ...(fetchPath === undefined
      ? []
      : [
          `<link rel="preload" as="fetch" crossorigin="anonymous" href="${escapeHtml(proxyUrl + fetchPath)}">`,
        ]),
  ];
}

/**
 * The head lines of a card drawn by the proxy (`src/contracts/drawn-card-contract.ts`): the card's markup preloaded
 * exactly as the entry asks for it (`widget/delivery/drawn-cards.ts`, from the attributes the snippet writes), so that
 * the card paints from it one round trip after the HTML with no element code, and `modulepreload` for the entry and
 * the hydrating bundle that makes it live.
 */
function drawnCardPreloadLines(
  proxyUrl: string,
  version: string,
  attributes: readonly (readonly [string, string])[],
): string[] {
  const written = new Map(attributes);
  return headLines(
    proxyUrl,
    version,
    [hydrateFileName],
    drawnCardPathOf((name) => written.get(name)),
  );
}

/** The snippet for `choice`, exactly as a partner pastes it: script tag pinned to the version, element, CSS rule. */
export function embedSnippet(choice: EmbedChoice): EmbedSnippet {
  const base = `${choice.proxyUrl}/widget/v${choice.version}`;
  const script =
    choice.embed === 'banner'
      ? `<script type="module" src="${escapeHtml(`${base}/fan-polls-frame.js`)}"></script>`
      : `<script type="module" src="${escapeHtml(`${base}/fan-polls.js`)}" data-proxy="${escapeHtml(choice.proxyUrl)}"></script>`;
  const { tag, attributes } = embedElement(choice);
  // A card reads at once (`eager`) so that its read is the one the preload started, wherever the card sits.
  const shown = choice.embed === 'card' ? [...attributes, ['eager', ''] as [string, string]] : attributes;
  const opening = [
    `<${tag}`,
    ...shown.map(([name, value]) => (value === '' ? `  ${name}` : `  ${name}="${escapeHtml(value)}"`)),
  ].join('\n');
  const fallback =
    choice.embed === 'card'
      ? '\n  <a href="/polls">Vote in the fan poll</a> <!-- until the card loads -->\n'
      : '';
  // A card in a language of its own is drawn by the proxy in it, a `current` card with its clubs' current poll; in
  // the page's language (unknown here), it paints from the element code and its preloaded data. A `current` card in
  // the page's language names no poll the page could preload: the entry and its element code only.
  const cardPreloads = choice.lang
    ? drawnCardPreloadLines(choice.proxyUrl, choice.version, attributes)
    : preloadLines(
        choice.proxyUrl,
        choice.version,
        choice.current ? [] : [choice.pollId],
        choice.elementCode,
      );
  const preloads = choice.embed === 'card' ? cardPreloads.join('\n') + '\n' : '';
  const html = `${preloads}${script}\n${opening}\n>${fallback}</${tag}>\n`;
  const css = `${tag} {\n${reservedSpace(choice)
    .map(([property, value]) => `  ${property}: ${value};`)
    .join('\n')}\n}\n`;
  const narrow = narrowReservedSpace(choice);
  const narrowCss = narrow
    ? `@media (max-width: ${narrowViewport}px) {\n  ${tag} {\n${narrow.map(([property, value]) => `    ${property}: ${value};`).join('\n')}\n  }\n}\n`
    : '';
  return { html, css: css + narrowCss };
}

/** The CSS declarations that reserve the embed's space (and cap its width). */
export function reservedSpace(choice: EmbedChoice): [string, string][] {
  return [
    ['display', 'block'],
    ...(choice.embed === 'list'
      ? [['min-height', `${choice.minHeight}px`] as [string, string]]
      : [
          ['--fan-poll-min-height', `${choice.minHeight}px`] as [string, string],
          ['min-height', 'var(--fan-poll-min-height)'] as [string, string],
        ]),
    ...(choice.maxWidth > 0 ? [['max-width', `${choice.maxWidth}px`] as [string, string]] : []),
  ];
}

/** The declarations that change on a phone, when its height differs from the wide one; else undefined. */
function narrowReservedSpace(choice: EmbedChoice): [string, string][] | undefined {
  const height = choice.narrowMinHeight;
  if (height === undefined || height === choice.minHeight) return undefined;
  return [[choice.embed === 'list' ? 'min-height' : '--fan-poll-min-height', `${height}px`]];
}
