import type { Poll } from '../platform/types.ts';
import type { RenderFanPollOptions } from '../../widget/ssr/render-options.ts';
import { serverPollAttribute } from '../../widget/ssr/server-poll-data.ts';
import type { ProxyLogger } from './logger.ts';
import type { CachedAnswer } from './response-cache.ts';

/**
 * Draws one `<fan-poll>` as HTML (`renderFanPoll` of `fan-polls/ssr`, Lit SSR). Injected by the runtime that can run
 * Lit SSR (Node's `serve.ts`, the Workers entry); without it the banner's page goes out undrawn and the drawn card
 * (`drawn-card.ts`) is refused.
 */
export type CardRenderer = (poll: Poll | undefined, options: RenderFanPollOptions) => Promise<string>;

/**
 * How long a drawing waits for a poll the proxy has not cached before it is given up: the banner's page then goes out
 * undrawn, the drawn card is refused, and either card reads the poll in the browser.
 */
export const framePollDeadlineMs = 1500;

/**
 * Settings drawn per poll answer (one drawing per set of settings): a bound on what queries can make the proxy hold
 * and draw. Past it, a new set of settings (ever-new tracking values, say) gets no drawing, so a flood of distinct
 * queries costs no more than an undrawn answer per request, and at most this many renders per poll per cache fill.
 */
export const maxDrawnPerAnswer = 16;

/**
 * Drawings made from a poll's cached public read (the banner's page, the drawn card), one per settings `key` and
 * bounded by `maxDrawnPerAnswer`: each drawn once, shared by the requests that come while it is drawn, and gone with
 * the answer when the cache replaces it (kept in a WeakMap on the answer: nothing to expire). A drawing that fails is
 * no drawing (kept as such, so a failing render is not retried per request), and the operator hears why under
 * `undrawnEvent` (the error's name only: a render error names no poll string).
 */
export class DrawnPerAnswer<T> {
  readonly #drawn = new WeakMap<CachedAnswer, Map<string, Promise<T | undefined>>>();
  readonly #undrawnEvent: string;

  constructor(undrawnEvent: string) {
    this.#undrawnEvent = undrawnEvent;
  }

  /**
   * The drawing for `key` of the poll answer `read` gives, drawn by `draw` the first time. Undefined when the read
   * fails or is not in within `framePollDeadlineMs` (it goes on and fills the cache), when `draw` gives none or fails,
   * or when the answer has its `maxDrawnPerAnswer` drawings already and `key` is not one of them.
   */
  async drawing(
    read: Promise<CachedAnswer>,
    key: string,
    draw: (poll: CachedAnswer) => Promise<T | undefined>,
    logger: ProxyLogger,
  ): Promise<T | undefined> {
    const poll = await withinDeadline(read, framePollDeadlineMs);
    if (poll === undefined) return undefined;
    let drawn = this.#drawn.get(poll);
    if (drawn === undefined) {
      drawn = new Map<string, Promise<T | undefined>>();
      this.#drawn.set(poll, drawn);
    }
    let drawing = drawn.get(key);
    if (drawing === undefined) {
      if (drawn.size >= maxDrawnPerAnswer) return undefined;
      drawing = draw(poll).catch((error: unknown) => {
        logger.log('warn', this.#undrawnEvent, { error: error instanceof Error ? error.name : 'unknown' });
        return undefined;
      });
      drawn.set(key, drawing);
    }
    return drawing;
  }
}

/**
 * The card's markup drawn from a poll answer (its `{ data }` body), or undefined when the card was drawn without its
 * poll (not a poll the card can show: no data block to hydrate from), which the card reads in the browser instead.
 */
export async function cardMarkupOf(
  poll: CachedAnswer,
  options: RenderFanPollOptions,
  renderCard: CardRenderer,
): Promise<string | undefined> {
  const { data } = JSON.parse(poll.body) as { data?: Poll };
  const card = await renderCard(data, options);
  return card.includes(serverPollAttribute) ? card : undefined;
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
