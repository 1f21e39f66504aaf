// The share image's fonts for Chinese, Japanese, Korean and emoji, in slices of a few dozen kB each: on Node only
// (read from the packages: 4.7 MB of Noto Sans SC, 3.4 MB of Noto Sans KR and 1.2 MB of Noto Emoji, regular only).
// The edge build leaves them out, which keeps the Worker within the Workers free plan's 3 MB, compressed.
import scRanges from '@fontsource/noto-sans-sc/unicode.json' with { type: 'json' };
import krRanges from '@fontsource/noto-sans-kr/unicode.json' with { type: 'json' };
import emojiRanges from '@fontsource/noto-emoji/unicode.json' with { type: 'json' };
import { fontsourceFiles, parseUnicodeRange, type FallbackFont } from './fallback-fonts.ts';

/** Only the numbered slices (`[0]`..): the package's `latin` or `cyrillic` slices are Inter's to draw. */
const slices = (ranges: Readonly<Record<string, string>>): string[] =>
  Object.keys(ranges).filter((subset) => /^\[\d+\]$/.test(subset));

/** Hangul's blocks: jamo, compatibility jamo, extended jamo and syllables. */
const hangul = parseUnicodeRange('U+1100-11FF,U+3130-318F,U+A960-A97F,U+AC00-D7FF');

/** `fonts` for the characters of `blocks` only: the others are another font's to draw. */
function onlyIn(
  fonts: readonly FallbackFont[],
  blocks: readonly (readonly [number, number])[],
): FallbackFont[] {
  return fonts
    .map((font) => ({
      ...font,
      ranges: font.ranges.flatMap(([from, to]) =>
        blocks
          .map(([start, end]): [number, number] => [Math.max(from, start), Math.min(to, end)])
          .filter(([start, end]) => start <= end),
      ),
    }))
    .filter((font) => font.ranges.length > 0);
}

/**
 * Emoji first (Noto Sans SC's slices have a few emoji too), then Korean for Hangul alone (SC's slices list some
 * Hangul they do not draw), then SC for Chinese and Japanese.
 */
export const wideFallbackFonts: readonly FallbackFont[] = [
  ...fontsourceFiles('@fontsource/noto-emoji', 'Noto Emoji', emojiRanges, slices(emojiRanges), [400]),
  ...onlyIn(
    fontsourceFiles('@fontsource/noto-sans-kr', 'Noto Sans KR', krRanges, slices(krRanges), [400]),
    hangul,
  ),
  ...fontsourceFiles('@fontsource/noto-sans-sc', 'Noto Sans SC', scRanges, slices(scRanges), [400]),
];
