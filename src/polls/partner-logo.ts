import type { PartnerImage } from '../platform/types.ts';
import { safeImageUrl } from './safe-image-url.ts';

/** Card logos are small: prefer the desktop rendition, then the others the platform is known to send. */
const formatPreference = ['desktop', 'tablet', 'mobile'];
const imageTypes = new Set(['png', 'svg', 'svg+xml', 'jpg', 'jpeg', 'webp', 'avif', 'gif']);

/**
 * The best partner image for a card logo, as a safe URL, or undefined. Unsafe URLs are dropped first; among the rest,
 * known image types beat unknown ones, then the preferred format, then the larger width.
 */
export function choosePartnerLogo(images: readonly PartnerImage[]): string | undefined {
  const candidates = images.flatMap((image) => {
    const url = typeof image.url === 'string' ? safeImageUrl(image.url) : undefined;
    return url === undefined ? [] : [{ url, image }];
  });
  candidates.sort(
    (a, b) =>
      typeRank(a.image) - typeRank(b.image) ||
      formatRank(a.image) - formatRank(b.image) ||
      widthOf(b.image) - widthOf(a.image),
  );
  return candidates[0]?.url;
}

function typeRank(image: PartnerImage): number {
  const type = image.type?.toLowerCase().replace(/^image\//, '');
  return type !== undefined && imageTypes.has(type) ? 0 : 1;
}

function formatRank(image: PartnerImage): number {
  const rank = formatPreference.indexOf(image.format?.toLowerCase() ?? '');
  return rank === -1 ? formatPreference.length : rank;
}

/** Widths are strings on the platform (`"512"`); anything unreadable counts as 0. */
function widthOf(image: PartnerImage): number {
  const width = Number.parseInt(image.width ?? '', 10);
  return Number.isFinite(width) && width > 0 ? width : 0;
}
