// The plain article page of the widget benchmark: a news article at a phone's width with the widget embedded the way
// each build's README says (its snippet), in four cases.

export type BenchCase = 'open card' | 'read-only card' | 'ten cards' | 'iframe banner';
export const benchCases: readonly BenchCase[] = ['open card', 'read-only card', 'ten cards', 'iframe banner'];

export interface EmbedSnippet {
  /** What goes in the page's head: the embed's script tag, and the styles the README asks partners for. */
  head(proxyUrl: string, banner: boolean): string;
}

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
  /** This build: module scripts, and the card's height reserved with `--fan-poll-min-height` (README). */
  current: {
    head: (proxyUrl, banner) =>
      `<style>fan-poll, fan-poll-frame { display: block; min-height: var(--fan-poll-min-height); } ` +
      `fan-poll, fan-poll-frame { --fan-poll-min-height: 440px; }</style>` +
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
}

function cards(benchCase: BenchCase, polls: PollChoice): string {
  const card = (id: string) =>
    `<fan-poll poll-id="${id}"><p><a href="/polls">Vote in the fan poll</a></p></fan-poll>`;
  switch (benchCase) {
    case 'open card':
      return card(polls.open);
    case 'read-only card':
      return card(polls.readOnly);
    case 'ten cards':
      return polls.ten.map((id) => card(id) + paragraph).join('');
    case 'iframe banner':
      return `<fan-poll-frame poll-id="${polls.open}"></fan-poll-frame>`;
  }
}

export function articlePage(
  snippet: EmbedSnippet,
  benchCase: BenchCase,
  proxyUrl: string,
  polls: PollChoice,
): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Late Okafor header settles the derby</title>
<style>body { margin: 0 auto; max-width: 680px; padding: 0 16px; font: 18px/1.6 Georgia, serif; color: #222; }</style>
${snippet.head(proxyUrl, benchCase === 'iframe banner')}</head><body>
<h1>Late Okafor header settles the river derby</h1>${paragraph}${cards(benchCase, polls)}${paragraph.repeat(6)}
</body></html>`;
}
