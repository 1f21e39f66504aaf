import type { Context } from 'hono';
import { encodeBase64 } from 'hono/utils/encode';
import { partnerIdsOf } from '../contracts/current-poll-contract.ts';
import { checkUuid } from '../platform/query.ts';
import type { RenderFanPollOptions } from '../../widget/ssr/render-options.ts';
import { frameCardSettings } from '../../widget/iframe/frame-card-settings.ts';
import { hydrateFileName } from '../../widget/ssr/hydrate-file-name.ts';
import { gzipOf } from './content-coding.ts';
import { readPublicPoll } from './public-routes.ts';
import { etagOf, type CachedAnswer } from './response-cache.ts';
import { cardMarkupOf, DrawnPerAnswer, type CardRenderer } from './drawn-per-answer.ts';
import type { ProxyRuntime } from './runtime.ts';

/** The iframe page with its card drawn: the bytes, their ETag, the poll read it was drawn from, its styles' hashes. */
export interface RenderedFramePage {
  readonly body: Uint8Array<ArrayBuffer>;
  /** The same bytes gzipped, once per drawing. */
  readonly gzipped: Uint8Array<ArrayBuffer>;
  readonly etag: string;
  readonly poll: CachedAnswer;
  /** CSP sources (`'sha256-...'`) of the inline `<style>`s of the card's declarative shadow root. */
  readonly styleSources: readonly string[];
}

const contentSlot = '<main id="content" aria-label="Fan poll"></main>';
const pageStylesheet = '<link rel="stylesheet" href="./poll.css" />';
const elementCodePreloads = /<link rel="modulepreload" href="[^"]*" \/>/g;

/** The partners' current poll (`partnerIds` as `partnerIdsOf` gives them), from the proxy's cached list. */
export type CurrentPollRead = (c: Context, partnerIds: readonly string[]) => Promise<CachedAnswer>;

/**
 * The banner's iframe page (`page`, its proxy URL and poll preload filled in) with the card drawn into it from the
 * proxy's cached public read of its `?poll=` (the read `/api/polls/:id` answers from: no platform call when cached),
 * or, for a `current` banner (`?current=<partner ids>`), of its clubs' current poll (`readCurrent`, picked from the
 * cached list `/api/polls/current` answers from: no platform read per fan), written `current partner-ids` so that it
 * follows that poll once live; so that the poll is on screen with the page. Its script then hydrates that card
 * (`fan-polls-hydrate.js`, preloaded instead of the element code). Undefined, for the page to go out undrawn, when the
 * id is not a poll id (or the partner ids not partner ids), no poll is current, the read fails or takes longer than
 * `framePollDeadlineMs`, the render fails, or the answer has its `maxDrawnPerAnswer` drawings already: the card then
 * reads the poll in the browser.
 */
export async function renderedFramePage(
  page: string,
  pageStyles: string | undefined,
  runtime: ProxyRuntime,
  c: Context,
  renderCard: CardRenderer,
  readCurrent: CurrentPollRead,
): Promise<RenderedFramePage | undefined> {
  if (!page.includes(contentSlot)) return undefined;
  const settings = frameCardSettings(new URL(c.req.url).searchParams);
  const { currentOf } = settings;
  let read: Promise<CachedAnswer>;
  let options: RenderFanPollOptions;
  if (currentOf === undefined) {
    let pollId: string;
    try {
      pollId = checkUuid(settings.pollId, 'poll').toLowerCase();
    } catch {
      return undefined;
    }
    read = readPublicPoll(runtime, c, pollId);
    options = { ...settings, pollId, proxy: runtime.config.publicUrl, eager: true };
  } else {
    const partnerIds = partnerIdsOf(currentOf);
    if (partnerIds === undefined) return undefined;
    read = readCurrent(c, partnerIds);
    options = { ...settings, currentOf, proxy: runtime.config.publicUrl, eager: true };
  }
  return drawnPages.drawing(
    read,
    JSON.stringify(settings),
    (poll) => drawPage(page, pageStyles, poll, options, renderCard),
    runtime.logger,
  );
}

/** Pages drawn from one poll answer, per settings (`drawn-per-answer.ts`). */
const drawnPages = new DrawnPerAnswer<RenderedFramePage>('frame_page_undrawn');

async function drawPage(
  page: string,
  pageStyles: string | undefined,
  poll: CachedAnswer,
  options: RenderFanPollOptions,
  renderCard: CardRenderer,
): Promise<RenderedFramePage | undefined> {
  const card = await cardMarkupOf(poll, options, renderCard);
  // Drawn without its poll (not a poll the card can show): the undrawn page reads it as any card does.
  if (card === undefined) return undefined;
  // The page's own stylesheet inline: its body is laid out with the card in it from the first frame (a framed
  // page may be laid out before a stylesheet arrives, and the card would then shift by the body's default margin).
  const styled =
    pageStyles === undefined || pageStyles.includes('</')
      ? page
      : page.replace(pageStylesheet, () => `<style>${pageStyles}</style>`);
  const html = styled
    .replace(elementCodePreloads, '')
    .replace(
      '<script type="module" src="./poll.js"></script>',
      `<link rel="modulepreload" href="../${hydrateFileName}" />\n    <script type="module" src="./poll.js"></script>`,
    )
    .replace(/<html lang="[^"]*">/, `<html lang="${options.lang ?? 'en'}">`)
    .replace(contentSlot, () => contentSlot.replace('></main>', `>${card}</main>`));
  const body = new TextEncoder().encode(html);
  return {
    body,
    gzipped: await gzipOf(html),
    etag: await etagOf(body),
    poll,
    styleSources: await styleSourcesOf(html),
  };
}

/** The CSP hash source of each inline `<style>` of the markup (its text as the browser hashes it). */
export async function styleSourcesOf(markup: string): Promise<string[]> {
  const sources = new Set<string>();
  for (const [, css] of markup.matchAll(/<style>([\s\S]*?)<\/style>/g)) {
    const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(css));
    sources.add(`'sha256-${encodeBase64(digest)}'`);
  }
  return [...sources];
}
