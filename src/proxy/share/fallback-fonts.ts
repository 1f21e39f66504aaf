// The share image's fonts for text Inter's Latin files do not cover, each named with the characters it has (the
// `unicode-range` of its @fontsource package, `unicode.json`). Loaded only for a drawing whose text needs them.
import interRanges from '@fontsource/inter/unicode.json' with { type: 'json' };
import arabicRanges from '@fontsource/noto-sans-arabic/unicode.json' with { type: 'json' };
import hebrewRanges from '@fontsource/noto-sans-hebrew/unicode.json' with { type: 'json' };

/** One fallback font file: its package path (`.woff`: satori takes no `.woff2`), name, weight and characters. */
export interface FallbackFont {
  readonly file: string;
  /**
   * The family and the subset, the same for each weight: satori keeps one font per name and weight, and finds the
   * bold of a fallback by its name.
   */
  readonly name: string;
  readonly weight: 400 | 700;
  /** Inclusive code point ranges. */
  readonly ranges: readonly (readonly [number, number])[];
}

/** `U+0600-06FF,U+200C` as inclusive code point ranges. */
export function parseUnicodeRange(text: string): [number, number][] {
  return text.split(',').map((part) => {
    const [from = '', to = from] = part.trim().replace(/^U\+/i, '').split('-');
    return [Number.parseInt(from, 16), Number.parseInt(to, 16)];
  });
}

/**
 * The files of `subsets` of one @fontsource package, in `weights`: `<package>/files/<stem>-<subset>-<weight>-normal.woff`.
 * A subset such as `[12]` (a numbered slice of a large font) is written `12` in the file's name.
 */
export function fontsourceFiles(
  packageName: string,
  family: string,
  ranges: Readonly<Record<string, string>>,
  subsets: readonly string[],
  weights: readonly (400 | 700)[],
): FallbackFont[] {
  const stem = packageName.slice(packageName.indexOf('/') + 1);
  return weights.flatMap((weight) =>
    subsets.map((subset) => {
      const range = ranges[subset];
      if (range === undefined) throw new Error(`${packageName} has no subset ${subset}`);
      return {
        file: `${packageName}/files/${stem}-${subset.replace(/^\[(\d+)\]$/, '$1')}-${String(weight)}-normal.woff`,
        name: `${family} ${subset}`,
        weight,
        ranges: parseUnicodeRange(range),
      };
    }),
  );
}

/**
 * Cyrillic and Greek (Inter's own, under its licence), Arabic and Hebrew (Noto Sans), regular and bold: on Node and in
 * the edge build (about 290 kB).
 */
export const scriptFallbackFonts: readonly FallbackFont[] = [
  ...fontsourceFiles(
    '@fontsource/inter',
    'Inter',
    interRanges,
    ['cyrillic', 'cyrillic-ext', 'greek', 'greek-ext'],
    [400, 700],
  ),
  ...fontsourceFiles(
    '@fontsource/noto-sans-arabic',
    'Noto Sans Arabic',
    arabicRanges,
    ['arabic'],
    [400, 700],
  ),
  ...fontsourceFiles(
    '@fontsource/noto-sans-hebrew',
    'Noto Sans Hebrew',
    hebrewRanges,
    ['hebrew'],
    [400, 700],
  ),
];

/** What Inter's Latin files, always loaded, already draw. */
const interLatin = parseUnicodeRange(`${interRanges.latin},${interRanges['latin-ext']}`);

function inRanges(point: number, ranges: readonly (readonly [number, number])[]): boolean {
  return ranges.some(([from, to]) => point >= from && point <= to);
}

/**
 * The fallback files for the characters of `text` Inter's Latin files lack: for each, the first subset in `fonts` that
 * has it, in every weight (a large font's slices may repeat a character another script's font has).
 */
export function fallbackFontsFor(text: string, fonts: readonly FallbackFont[]): FallbackFont[] {
  const names = new Set<string>();
  for (const char of new Set(text)) {
    const point = char.codePointAt(0) ?? 0;
    // Latin and its punctuation are Inter's first files: a space or a dash beside Cyrillic asks for no Arabic.
    if (inRanges(point, interLatin)) continue;
    const font = fonts.find((each) => inRanges(point, each.ranges));
    if (font) names.add(font.name);
  }
  return fonts.filter((font) => names.has(font.name));
}
