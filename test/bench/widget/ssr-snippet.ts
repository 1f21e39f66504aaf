// The widget bench's server-rendered case: each card drawn by the page's server (`fan-polls/ssr`, Lit SSR, as
// examples/ssr/ do it) into the HTML, and `fan-polls-hydrate.js` loaded to hydrate it. Measured against the static
// floor, the same markup without any script (at most 1.15x).
import type { Poll } from '../../../src/platform/types.ts';
import { renderFanPoll } from '../../../widget/ssr/render-fan-poll.ts';
import { reserved, type EmbedSnippet, type PollChoice } from './article-pages.ts';

export interface SsrSnippet {
  readonly snippet: EmbedSnippet;
  /** Renders the cards of `polls` once (their markup is then the same in every run), before the pages are served. */
  render(proxyUrl: string, polls: PollChoice): Promise<void>;
}

export function ssrSnippet(): SsrSnippet {
  const rendered = new Map<string, string>();
  return {
    snippet: {
      head: (proxyUrl, banner) =>
        reserved +
        (banner
          ? `<script type="module" src="widget/fan-polls-frame.js"></script>`
          : `<script type="module" src="widget/fan-polls-hydrate.js" data-proxy="${proxyUrl}"></script>`),
      card: (poll: Poll) => rendered.get(poll.id) ?? '',
    },
    async render(proxyUrl, polls) {
      for (const [id, poll] of polls.byId)
        rendered.set(id, await renderFanPoll(poll, { proxy: proxyUrl, eager: true }));
    },
  };
}
