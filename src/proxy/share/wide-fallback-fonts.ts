// The share image's fonts for Chinese, Japanese and emoji, in slices of a few dozen kB each: on Node only (read
// from the packages: 4.7 MB of Noto Sans SC and 1.2 MB of Noto Emoji, regular only). The edge build leaves them out,
// which keeps the Worker within the Workers free plan's 3 MB, compressed.
import scRanges from '@fontsource/noto-sans-sc/unicode.json' with { type: 'json' };
import emojiRanges from '@fontsource/noto-emoji/unicode.json' with { type: 'json' };
import { fontsourceFiles, type FallbackFont } from './fallback-fonts.ts';

/** Only the numbered slices (`[0]`..): the package's `latin` or `cyrillic` slices are Inter's to draw. */
const slices = (ranges: Readonly<Record<string, string>>): string[] =>
  Object.keys(ranges).filter((subset) => /^\[\d+\]$/.test(subset));

/** Emoji first: Noto Sans SC's slices have a few emoji too. */
export const wideFallbackFonts: readonly FallbackFont[] = [
  ...fontsourceFiles('@fontsource/noto-emoji', 'Noto Emoji', emojiRanges, slices(emojiRanges), [400]),
  ...fontsourceFiles('@fontsource/noto-sans-sc', 'Noto Sans SC', scRanges, slices(scRanges), [400]),
];
