import { trackingParameterNames, type TrackingParameterName } from '../../src/contracts/tracking.ts';
import { escapeHtml } from '../../src/contracts/html-escape.ts';

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
  /** The widest the embed gets, in CSS pixels; 0: the width of its container. */
  readonly maxWidth: number;
  readonly tracking: Readonly<Partial<Record<TrackingParameterName, string>>>;
}

export interface EmbedSnippet {
  /** Where the embed goes in the page's HTML. */
  readonly html: string;
  /** One rule for the page's own stylesheet (no inline style: it works under a strict `style-src`). */
  readonly css: string;
}

const tags = { card: 'fan-poll', list: 'fan-poll-list', banner: 'fan-poll-frame' } as const;

/** The element's tag and its attributes for `choice` (the snippet writes them; the live preview sets them). */
export function embedElement(choice: EmbedChoice): { tag: string; attributes: [string, string][] } {
  const attributes: [string, string][] = [
    choice.embed === 'list' ? ['partner-ids', choice.partnerId] : ['poll-id', choice.pollId],
    ...(choice.embed === 'list' ? [['limit', '6'] as [string, string]] : []),
    ['theme', choice.theme],
    ['results', choice.results === 'always' ? '' : choice.results],
    ['lang', choice.lang],
    ...trackingParameterNames.map((key): [string, string] => [key, choice.tracking[key]?.trim() ?? '']),
  ];
  return { tag: tags[choice.embed], attributes: attributes.filter(([, value]) => value !== '') };
}

/** The snippet for `choice`, exactly as a partner pastes it: script tag pinned to the version, element, CSS rule. */
export function embedSnippet(choice: EmbedChoice): EmbedSnippet {
  const base = `${choice.proxyUrl}/widget/v${choice.version}`;
  const script =
    choice.embed === 'banner'
      ? `<script type="module" src="${escapeHtml(`${base}/fan-polls-frame.js`)}"></script>`
      : `<script type="module" src="${escapeHtml(`${base}/fan-polls.js`)}" data-proxy="${escapeHtml(choice.proxyUrl)}"></script>`;
  const { tag, attributes } = embedElement(choice);
  const opening = [`<${tag}`, ...attributes.map(([name, value]) => `  ${name}="${escapeHtml(value)}"`)].join(
    '\n',
  );
  const fallback =
    choice.embed === 'card'
      ? '\n  <a href="/polls">Vote in the fan poll</a> <!-- until the card loads -->\n'
      : '';
  const html = `${script}\n${opening}\n>${fallback}</${tag}>\n`;
  const css = `${tag} {\n${reservedSpace(choice)
    .map(([property, value]) => `  ${property}: ${value};`)
    .join('\n')}\n}\n`;
  return { html, css };
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
