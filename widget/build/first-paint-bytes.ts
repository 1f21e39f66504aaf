import { readdirSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

/**
 * The budget for the code a script-tag card needs before it paints its poll, whatever the phase: 20,630 B gzip (level
 * 9, each file on its own), measured with the chunks' content hashes blanked
 * (docs/decisions/0042-first-paint-budget-without-chunk-hashes.md,
 * 0043-number-formatting-warmed-before-hydration.md, 0044-drawn-card-live-before-its-voting-chunk.md,
 * 0045-a-button-that-takes-no-tap-looks-it.md).
 */
export const firstPaintBudgetBytes = 20_630;

/**
 * The budget for the code a card the proxy drew needs before the fan's tap works: `fan-polls-hydrate.js` alone,
 * 22,100 B gzip, measured as `firstPaintBudgetBytes` (docs/decisions/0044-drawn-card-live-before-its-voting-chunk.md).
 */
export const drawnCardTapBudgetBytes = 22_100;

/** The gzip size of a script-tag card's first-paint files, as the budget measures it and as served. */
export interface FirstPaintBytes {
  /** Each file gzipped at level 9 on its own, with every chunk's content hash written as `xxxxxxxx`. */
  readonly hashesBlanked: number;
  /** The same files as they are served. */
  readonly served: number;
}

/**
 * Measures `files` (paths in `widgetDir`, a widget build). A change to any lazy chunk renames it, and its new hash
 * compresses a few bytes better or worse in the code that imports it: not a change to the code a card needs, so the
 * budget reads every hash (the 8 characters before `.js` in a chunk's file name) as `xxxxxxxx`.
 */
export function firstPaintBytes(widgetDir: string, files: readonly string[]): FirstPaintBytes {
  const hashes = readdirSync(`${widgetDir}chunks`).flatMap(
    (file) => /-([\w-]{8})\.js$/.exec(file)?.[1] ?? [],
  );
  const code = files.map((file) => readFileSync(widgetDir + file, 'utf8'));
  const blank = (text: string) =>
    hashes.reduce((blanked, hash) => blanked.replaceAll(hash, 'xxxxxxxx'), text);
  const gzip = (texts: readonly string[]) =>
    texts.reduce((sum, text) => sum + gzipSync(text, { level: 9 }).length, 0);
  return { hashesBlanked: gzip(code.map(blank)), served: gzip(code) };
}
