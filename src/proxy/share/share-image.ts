import type { Poll } from '../../platform/types.ts';
import type { DrawnCardQuery } from '../../contracts/drawn-card-contract.ts';
import { DrawnPerAnswer } from '../drawn-per-answer.ts';
import { ProxyError } from '../errors.ts';
import { etagOf, type CachedAnswer } from '../response-cache.ts';
import type { ProxyRuntime } from '../runtime.ts';
import { shareCardOf, type ShareCard } from './share-card.ts';

/**
 * Draws a poll's share image (`shareImageSize`, PNG bytes) from its share card, with no network. Injected by the
 * runtime (Node's `serve.ts`, the Worker's `edge-app.ts`: satori and resvg-wasm, `share-image-drawing.ts`); without
 * it the share page names no image and the image's route answers 404 `share_image_not_drawn`.
 */
export type ShareImageRenderer = (card: ShareCard) => Promise<Uint8Array<ArrayBuffer>>;

/** A drawn share image: its bytes, their ETag, and when the poll read it was drawn from was loaded (its `Age`). */
export interface ShareImage {
  readonly png: Uint8Array<ArrayBuffer>;
  readonly etag: string;
  readonly storedAt: number;
}

/** Share images drawn from one poll answer, one per results setting (`drawn-per-answer.ts`). */
const drawnImages = new DrawnPerAnswer<ShareImage>('share_image_undrawn');

/**
 * The share image of the poll answer `read` gives, drawn once per cached answer and results setting, so a crowd of
 * crawlers costs one drawing per poll per freshness window. Throws `share_image_not_drawn` when it cannot be drawn.
 */
export async function shareImage(
  runtime: ProxyRuntime,
  read: Promise<CachedAnswer>,
  results: DrawnCardQuery['results'],
  render: ShareImageRenderer,
): Promise<ShareImage> {
  const drawn = await drawnImages.drawing(
    read,
    results ?? 'always',
    async (poll) => {
      const { data } = JSON.parse(poll.body) as { data?: Poll };
      if (data === undefined) return undefined;
      const png = await render(shareCardOf(data, runtime.now(), results));
      return { png, etag: await etagOf(png), storedAt: poll.storedAt };
    },
    runtime.logger,
  );
  if (drawn === undefined)
    throw new ProxyError('share_image_not_drawn', 'This share image is not drawn here.');
  return drawn;
}
