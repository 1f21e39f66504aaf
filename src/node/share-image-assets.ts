// The share image's WebAssembly (satori's layout, resvg) and fonts, read from the installed packages (`dependencies`, so a production
// install has them, each with its licence beside it: resvg-wasm's MPL-2.0, Inter's SIL Open Font License).
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { ShareImageAssets } from '../proxy/share/share-image-drawing.ts';
import { scriptFallbackFonts } from '../proxy/share/fallback-fonts.ts';
import { wideFallbackFonts } from '../proxy/share/wide-fallback-fonts.ts';

const resolve = createRequire(import.meta.url).resolve;

/** Inter's Latin and Latin Extended subsets (`.woff`: satori takes no `.woff2`), regular and bold. */
export const shareImageFontFiles = [400, 700].flatMap((weight) =>
  ['latin', 'latin-ext'].map((subset) => ({
    file: `@fontsource/inter/files/inter-${subset}-${String(weight)}-normal.woff`,
    weight: weight as 400 | 700,
  })),
);

export async function readShareImageAssets(): Promise<ShareImageAssets> {
  const [layoutWasm, wasm, ...fonts] = await Promise.all([
    readFile(resolve('satori/layout.wasm')),
    readFile(resolve('@resvg/resvg-wasm/index_bg.wasm')),
    ...shareImageFontFiles.map(({ file }) => readFile(resolve(file))),
  ]);
  return {
    layoutWasm: new Uint8Array(layoutWasm),
    wasm: new Uint8Array(wasm),
    fonts: fonts.map((data, index) => ({
      data: data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength),
      weight: shareImageFontFiles[index]?.weight ?? 400,
    })),
    // Every fallback, CJK and emoji too: a Node install has the packages, whatever their size.
    fallbackFonts: [...scriptFallbackFonts, ...wideFallbackFonts],
    readFallbackFont: async (file) => {
      const data = await readFile(resolve(file));
      return data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength);
    },
  };
}
