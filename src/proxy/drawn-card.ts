import { drawnCardSettings } from '../contracts/drawn-card-contract.ts';
import type { RenderFanPollOptions } from '../../widget/ssr/render-options.ts';
import { cardMarkupOf, DrawnPerAnswer, type CardRenderer } from './drawn-per-answer.ts';
import { gzipOf } from './content-coding.ts';
import { ProxyError } from './errors.ts';
import { etagOf, type CachedAnswer } from './response-cache.ts';
import type { ProxyRuntime } from './runtime.ts';

/** A drawn card's body: markup the page's script fetches and puts in place (never navigated to: no CSP of its own). */
export const drawnCardContentType = 'text/html; charset=utf-8';

/**
 * The card of `drawnCardPattern` (or `drawnCurrentCardPath`, with no `pollId`: the current poll the read names):
 * `renderFanPoll`'s `<fan-poll>` (its declarative shadow root, and the poll's data block in its light DOM to hydrate
 * from), drawn from the poll's cached public read as the banner's page is (`frame-page-render.ts`). It is a cached
 * answer of its own (its body the markup, its ETag the markup's, its `storedAt` and so its `Age` the read's), which
 * the `/api/polls` group answers as it answers that read: the same CORS, cache headers and 304. Its settings are the
 * request's query (`drawnCardSettings`); `read` starts the poll read (`{ data: Poll | null }`), only once there is a
 * renderer to draw with.
 *
 * Throws `card_not_drawn` (404) when there is no renderer (a runtime without Lit SSR), the read fails, names no poll
 * or takes longer than `framePollDeadlineMs`, the render fails or draws no poll, or the answer has its
 * `maxDrawnPerAnswer` drawings already: the page's script then reads the poll as any card does.
 */
export async function drawnCard(
  runtime: ProxyRuntime,
  pollId: string | undefined,
  query: URLSearchParams,
  read: () => Promise<CachedAnswer>,
  renderCard: CardRenderer | undefined,
): Promise<DrawnCard> {
  const drawnSettings = drawnCardSettings(query);
  const options: RenderFanPollOptions = {
    ...(pollId === undefined ? {} : { pollId }),
    proxy: runtime.config.publicUrl,
    ...drawnSettings,
    eager: true,
  };
  const drawn =
    renderCard &&
    (await drawnCards.drawing(
      read(),
      // One key per drawing however a request says "the default": absent settings are left out of the JSON.
      JSON.stringify(drawnSettings),
      (poll) => drawCard(poll, options, renderCard),
      runtime.logger,
    ));
  if (drawn === undefined) {
    throw new ProxyError('card_not_drawn', 'This card is not drawn here; read the poll instead.');
  }
  return drawn;
}

/** A drawn card: a cached answer of its own, and its body gzipped (`content-coding.ts`). */
export interface DrawnCard extends CachedAnswer {
  readonly gzipped: Uint8Array<ArrayBuffer>;
}

/** Cards drawn from one poll answer, per settings (`drawn-per-answer.ts`). */
const drawnCards = new DrawnPerAnswer<DrawnCard>('card_undrawn');

/** The card drawn from `poll`, its ETag and gzip computed once here; undefined when it draws no poll. */
async function drawCard(
  poll: CachedAnswer,
  options: RenderFanPollOptions,
  renderCard: CardRenderer,
): Promise<DrawnCard | undefined> {
  const card = await cardMarkupOf(poll, options, renderCard);
  if (card === undefined) return undefined;
  const [etag, gzipped] = await Promise.all([etagOf(card), gzipOf(card)]);
  return { body: card, etag, storedAt: poll.storedAt, gzipped };
}
