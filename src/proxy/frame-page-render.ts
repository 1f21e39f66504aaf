import type { Context } from 'hono';
import type { Poll } from '../platform/types.ts';
import { checkUuid } from '../platform/query.ts';
import type { RenderFanPollOptions } from '../../widget/ssr/render-options.ts';
import { frameCardSettings } from '../../widget/iframe/frame-card-settings.ts';
import { serverPollAttribute } from '../../widget/ssr/server-poll-data.ts';
import { hydrateFileName } from '../../widget/ssr/hydrate-file-name.ts';
import { readPublicPoll } from './public-routes.ts';
import { etagOf, type CachedAnswer } from './response-cache.ts';
import type { ProxyLogger } from './logger.ts';
import type { ProxyRuntime } from './runtime.ts';

/**
 * Draws one `<fan-poll>` as HTML (`renderFanPoll` of `fan-polls/ssr`, Lit SSR). Injected by the runtime that can run
 * Lit SSR (Node's `serve.ts`); without it the iframe page goes out undrawn, as on the edge.
 */
export type FrameCardRenderer = (poll: Poll | undefined, options: RenderFanPollOptions) => Promise<string>;

/** The iframe page with its card drawn: the bytes, their ETag, the poll read it was drawn from, its styles' hashes. */
export interface RenderedFramePage {
  readonly body: Uint8Array<ArrayBuffer>;
  readonly etag: string;
  readonly poll: CachedAnswer;
  /** CSP sources (`'sha256-...'`) of the inline `<style>`s of the card's declarative shadow root. */
  readonly styleSources: readonly string[];
}

/** How long the page waits for a poll the proxy has not cached before it goes out undrawn (the card reads it then). */
export const framePollDeadlineMs = 1500;

/**
 * Settings drawn per poll answer (one page per set of the page's settings): a bound on what queries can make the proxy
 * hold and draw. Past it, a new set of settings (ever-new tracking values, say) gets the page undrawn, so a flood of
 * distinct queries costs no more than the undrawn page's per request, and at most this many renders per poll per
 * cache fill.
 */
export const maxDrawnPerAnswer = 16;

const contentSlot = '<main id="content" aria-label="Fan poll"></main>';
const pageStylesheet = '<link rel="stylesheet" href="./poll.css" />';
const elementCodePreloads = /<link rel="modulepreload" href="[^"]*" \/>/g;

/**
 * The banner's iframe page (`page`, its proxy URL and poll preload filled in) with the card drawn into it from the
 * proxy's cached public read of its `?poll=` (the read `/api/polls/:id` answers from: no platform call when cached),
 * so that the poll is on screen with the page; its script then hydrates that card (`fan-polls-hydrate.js`, preloaded
 * instead of the element code). Undefined, for the page to go out undrawn, when the id is not a poll id, the read
 * fails or takes longer than `framePollDeadlineMs`, or the render fails: the card then reads the poll in the browser.
 */
export async function renderedFramePage(
  page: string,
  pageStyles: string | undefined,
  runtime: ProxyRuntime,
  c: Context,
  renderCard: FrameCardRenderer,
): Promise<RenderedFramePage | undefined> {
  if (!page.includes(contentSlot)) return undefined;
  const settings = frameCardSettings(new URL(c.req.url).searchParams);
  let pollId: string;
  try {
    pollId = checkUuid(settings.pollId, 'poll').toLowerCase();
  } catch {
    return undefined;
  }
  const poll = await withinDeadline(readPublicPoll(runtime, c, pollId), framePollDeadlineMs);
  if (poll === undefined) return undefined;
  const key = JSON.stringify(settings);
  let drawn = drawnPages.get(poll);
  if (drawn === undefined) {
    drawn = new Map<string, Promise<RenderedFramePage | undefined>>();
    drawnPages.set(poll, drawn);
  }
  let rendered = drawn.get(key);
  if (rendered === undefined) {
    if (drawn.size >= maxDrawnPerAnswer) return undefined;
    rendered = drawPage(
      page,
      pageStyles,
      poll,
      { ...settings, pollId, proxy: runtime.config.publicUrl, eager: true },
      renderCard,
      runtime.logger,
    );
    drawn.set(key, rendered);
  }
  return rendered;
}

/** Pages drawn from one poll answer, per settings; gone with the answer when the cache replaces it. */
const drawnPages = new WeakMap<CachedAnswer, Map<string, Promise<RenderedFramePage | undefined>>>();

async function drawPage(
  page: string,
  pageStyles: string | undefined,
  poll: CachedAnswer,
  options: RenderFanPollOptions,
  renderCard: FrameCardRenderer,
  logger: ProxyLogger,
): Promise<RenderedFramePage | undefined> {
  try {
    const { data } = JSON.parse(poll.body) as { data?: Poll };
    const card = await renderCard(data, options);
    // Drawn without its poll (not a poll the card can show): the undrawn page reads it as any card does.
    if (!card.includes(serverPollAttribute)) return undefined;
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
    return { body, etag: await etagOf(body), poll, styleSources: await styleSourcesOf(html) };
  } catch (error) {
    // The page goes out undrawn; the operator hears why (a render error names no poll string).
    logger.log('warn', 'frame_page_undrawn', { error: error instanceof Error ? error.name : 'unknown' });
    return undefined;
  }
}

/** The CSP hash source of each inline `<style>` of the markup (its text as the browser hashes it). */
async function styleSourcesOf(markup: string): Promise<string[]> {
  const sources = new Set<string>();
  for (const [, css] of markup.matchAll(/<style>([\s\S]*?)<\/style>/g)) {
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(css)));
    let binary = '';
    for (const byte of digest) binary += String.fromCharCode(byte);
    sources.add(`'sha256-${btoa(binary)}'`);
  }
  return [...sources];
}

/** The read's answer, or undefined when it fails or is not in within `ms` (it goes on and fills the cache). */
async function withinDeadline<T>(work: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(resolve, ms, undefined);
  });
  try {
    return await Promise.race([work, late]);
  } catch {
    return undefined;
  } finally {
    clearTimeout(timer);
    work.catch(() => undefined);
  }
}
