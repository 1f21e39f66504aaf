// The share image's WebAssembly and fonts on the Workers runtime: modules uploaded with the Worker
// (`edge-modules.ts`), the WebAssembly compiled by the runtime, where Node reads the same files from the packages
// (`src/node/share-image-assets.ts`).
import type { ShareImageAssets } from '../proxy/share/share-image-drawing.ts';
// Evaluated as the Worker starts, not on the first drawing's dynamic import: satori starts its HarfBuzz as its module
// is evaluated, and started inside a request that start hangs the request (workerd cancels it: "your Worker's code
// had hung and would never generate a response"), and every later drawing awaits a promise of an ended request.
import 'satori/standalone';
import layoutWasm from 'fan-polls-edge-module:satori-layout.wasm';
import resvgWasm from 'fan-polls-edge-module:resvg.wasm';
import latin400 from 'fan-polls-edge-module:inter-latin-400-normal.woff';
import latinExt400 from 'fan-polls-edge-module:inter-latin-ext-400-normal.woff';
import latin700 from 'fan-polls-edge-module:inter-latin-700-normal.woff';
import latinExt700 from 'fan-polls-edge-module:inter-latin-ext-700-normal.woff';
import fallbackFontData from 'fan-polls-edge-fallback-fonts';
import { scriptFallbackFonts } from '../proxy/share/fallback-fonts.ts';

export function edgeShareImageAssets(): Promise<ShareImageAssets> {
  return Promise.resolve({
    layoutWasm,
    wasm: resvgWasm,
    fonts: [
      { data: latin400, weight: 400 },
      { data: latinExt400, weight: 400 },
      { data: latin700, weight: 700 },
      { data: latinExt700, weight: 700 },
    ],
    fallbackFonts: scriptFallbackFonts,
    readFallbackFont: (file) => {
      const data = fallbackFontData[file];
      return data ? Promise.resolve(data) : Promise.reject(new Error(`${file} is not in the edge build`));
    },
  });
}
