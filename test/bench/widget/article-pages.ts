// The plain article page of the widget benchmark: a news article at a phone's width with the widget embedded the way
// each build's README says (its snippet), in four cases; and the two floors a card is measured against.
import { escapeHtml } from '../../../src/contracts/html-escape.ts';
import type { Poll } from '../../../src/platform/types.ts';
import { drawnCardPath } from '../../../src/contracts/drawn-card-contract.ts';
import { proxyPollsPath } from '../../../src/polls/proxy-polls-path.ts';
import { hydrateFileName } from '../../../widget/ssr/hydrate-file-name.ts';

export type BenchCase = 'open card' | 'read-only card' | 'ten cards' | 'iframe banner';
export const benchCases: readonly BenchCase[] = ['open card', 'read-only card', 'ten cards', 'iframe banner'];

export interface EmbedSnippet {
  /** What goes in the page's head: the embed's script tag, and the styles the README asks partners for. */
  head(proxyUrl: string, banner: boolean, page: PageCards): string;
  /** One card's markup (default: the element with its fallback link). */
  card?(poll: Poll): string;
  /** What comes after the article (a floor's inline script). */
  tail?(proxyUrl: string, page: PageCards): string;
  /** A floor draws a card where a banner would be. */
  readonly floor?: boolean;
}

/** The cards of one page and the element code's files (`version.json` of the build served). */
export interface PageCards {
  readonly ids: readonly string[];
  readonly build: { readonly scriptTagCard: readonly string[]; readonly readOnlyCard?: readonly string[] };
  readonly readOnly: boolean;
}

export const reserved =
  `<style>fan-poll, fan-poll-frame { display: block; min-height: var(--fan-poll-min-height); } ` +
  `fan-poll, fan-poll-frame { --fan-poll-min-height: 440px; }</style>`;

/**
 * The floors' card: question, answers (native radios) and a button in a shadow root, as the card's first paint shows
 * them (no styles). Its button works once drawn (`data-floor`: the bench's watch counts it live): a form's own.
 */
const floorCard = (poll: Poll): string =>
  `<form part="card"><p part="partner">${escapeHtml(poll.partnerName)}</p>` +
  `<fieldset part="answers"><legend part="question">${escapeHtml(poll.question)}</legend>` +
  poll.answers
    .map((answer) => `<label part="answer"><input type="radio" name="a">${escapeHtml(answer.answer)}</label>`)
    .join('') +
  `</fieldset><button part="button" data-floor>Vote</button></form>`;

/** Each build's embed as its README documents it. */
export const snippets = {
  /** d7c47da: one async classic script; no reserved space documented. */
  baseline: {
    head: (proxyUrl, banner) =>
      banner
        ? `<script async src="widget/fan-polls-frame.js"></script>`
        : `<script async src="widget/fan-polls.js" data-proxy="${proxyUrl}"></script>`,
  },
  /** This build without the reserved height: what a page that skips the README's style rule gets. */
  unreserved: {
    head: (proxyUrl, banner) =>
      banner
        ? `<script type="module" src="widget/fan-polls-frame.js"></script>`
        : `<script type="module" src="widget/fan-polls.js" data-proxy="${proxyUrl}"></script>`,
  },
  /**
   * This build with the README's recommended snippet (docs/embedding.md), the configurator's for a card in a language
   * the partner chose (English here): the card drawn by the proxy preloaded exactly as the entry asks for it
   * (`drawnCardPath`), with modulepreload of the entry and the hydrating bundle. A page of several cards has the
   * batched read and the element code preloaded instead (`recommendedData`). The banner has no preload lines.
   */
  recommended: {
    head: (proxyUrl, banner, page): string => {
      if (banner || page.ids.length !== 1) return snippets.recommendedData.head(proxyUrl, banner, page);
      return (
        reserved +
        ['fan-polls.js', hydrateFileName]
          .map((file) => `<link rel="modulepreload" href="widget/${file}">`)
          .join('') +
        `<link rel="preload" as="fetch" crossorigin="anonymous" href="${escapeHtml(proxyUrl + drawnCardPath(page.ids[0]!, { lang: 'en' }))}">` +
        `<script type="module" src="widget/fan-polls.js" data-proxy="${proxyUrl}"></script>`
      );
    },
    card: (poll) =>
      `<fan-poll poll-id="${poll.id}" lang="en" eager><p><a href="/polls">Vote in the fan poll</a></p></fan-poll>`,
  },
  /**
   * The recommended snippet for a card in the page's language (the configurator's default) and for a page of several
   * cards: modulepreload of the entry and its element code (and `card-details` for a read-only poll), the batched
   * read preloaded exactly as the entry asks for it, and `eager` on the cards it lists (all of them here).
   */
  recommendedData: {
    head: (proxyUrl, banner, page) => {
      if (banner) return reserved + `<script type="module" src="widget/fan-polls-frame.js"></script>`;
      const code = [...page.build.scriptTagCard, ...(page.readOnly ? (page.build.readOnlyCard ?? []) : [])];
      return (
        reserved +
        code.map((file) => `<link rel="modulepreload" href="widget/${file}">`).join('') +
        `<link rel="preload" as="fetch" crossorigin="anonymous" href="${escapeHtml(proxyUrl + proxyPollsPath(page.ids)!)}">` +
        `<script type="module" src="widget/fan-polls.js" data-proxy="${proxyUrl}"></script>`
      );
    },
    card: (poll) =>
      `<fan-poll poll-id="${poll.id}" eager><p><a href="/polls">Vote in the fan poll</a></p></fan-poll>`,
  },
  /**
   * The recommended snippet exactly as the README gives it: every file from the proxy itself (no CDN in front), which
   * answers them compressed from the build's Brotli and gzip copies.
   */
  recommendedFromProxy: {
    head: (proxyUrl, banner, page): string =>
      snippets.recommended.head(proxyUrl, banner, page).replaceAll('"widget/', `"${proxyUrl}/widget/`),
    card: (poll): string => snippets.recommended.card(poll),
  },
  /** The static floor: every card's markup in the HTML (declarative shadow DOM), no script, no read. */
  static: {
    floor: true,
    head: () => reserved,
    card: (poll) =>
      `<fan-poll poll-id="${poll.id}"><template shadowrootmode="open">${floorCard(poll)}</template></fan-poll>`,
  },
  /**
   * The inline-JS floor: one inline script after the article that reads the cards' polls at once and draws them (the
   * floor's card, its button a form's own).
   */
  inline: {
    floor: true,
    head: () => reserved,
    card: (poll) =>
      `<fan-poll poll-id="${poll.id}"><p><a href="/polls">Vote in the fan poll</a></p></fan-poll>`,
    tail: (proxyUrl, page) =>
      `<script>const esc = (t) => t.replace(/[&<>"]/g, (c) => '&#' + c.charCodeAt(0) + ';');` +
      `fetch(${JSON.stringify(proxyUrl + proxyPollsPath(page.ids)!)}).then((r) => r.json()).then(({ data }) => {` +
      `for (const poll of data) for (const card of document.querySelectorAll('fan-poll[poll-id="' + poll.id + '"]'))` +
      ` card.attachShadow({ mode: 'open' }).innerHTML = '<form part="card"><p part="partner">' + esc(poll.partnerName) +` +
      ` '</p><fieldset part="answers"><legend part="question">' + esc(poll.question) + '</legend>' +` +
      ` poll.answers.map((a) => '<label part="answer"><input type="radio" name="a">' + esc(a.answer) + '</label>').join('') +` +
      ` '</fieldset><button part="button" data-floor>Vote</button></form>'; });</script>`,
  },
  /** This build: module scripts, and the card's height reserved with `--fan-poll-min-height` (README). */
  current: {
    head: (proxyUrl, banner) =>
      reserved +
      (banner
        ? `<script type="module" src="widget/fan-polls-frame.js"></script>`
        : `<script type="module" src="widget/fan-polls.js" data-proxy="${proxyUrl}"></script>`),
  },
} satisfies Record<string, EmbedSnippet>;

const paragraph =
  '<p>Riverside came from behind at a rain-soaked Riverside Park, Tomi Okafor rising highest in the 88th minute to ' +
  'send the home end into raptures and keep his side two points clear at the top of the table.</p>';

export interface PollChoice {
  readonly open: string;
  readonly readOnly: string;
  readonly ten: readonly string[];
  /** The polls as the proxy answered them (the floors draw them). */
  readonly byId: ReadonlyMap<string, Poll>;
}

/** The ids of the cards `benchCase` shows (a floor shows the open card where a banner would be). */
export function caseIds(benchCase: BenchCase, polls: PollChoice): readonly string[] {
  switch (benchCase) {
    case 'open card':
    case 'iframe banner':
      return [polls.open];
    case 'read-only card':
      return [polls.readOnly];
    case 'ten cards':
      return polls.ten;
  }
}

function cards(snippet: EmbedSnippet, benchCase: BenchCase, polls: PollChoice): string {
  const card = (id: string) =>
    snippet.card?.(polls.byId.get(id)!) ??
    `<fan-poll poll-id="${id}"><p><a href="/polls">Vote in the fan poll</a></p></fan-poll>`;
  if (benchCase === 'iframe banner' && !snippet.floor)
    return `<fan-poll-frame poll-id="${polls.open}"></fan-poll-frame>`;
  return caseIds(benchCase, polls)
    .map((id) => card(id) + (benchCase === 'ten cards' ? paragraph : ''))
    .join('');
}

export function articlePage(
  snippet: EmbedSnippet,
  benchCase: BenchCase,
  proxyUrl: string,
  polls: PollChoice,
  build: PageCards['build'],
): string {
  const page: PageCards = { ids: caseIds(benchCase, polls), build, readOnly: benchCase === 'read-only card' };
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Late Okafor header settles the derby</title>
<style>body { margin: 0 auto; max-width: 680px; padding: 0 16px; font: 18px/1.6 Georgia, serif; color: #222; }</style>
${snippet.head(proxyUrl, benchCase === 'iframe banner' && !snippet.floor, page)}</head><body>
<h1>Late Okafor header settles the river derby</h1>${paragraph}${cards(snippet, benchCase, polls)}${paragraph.repeat(6)}
${snippet.tail?.(proxyUrl, page) ?? ''}</body></html>`;
}
