// The Worker's modules beside its bundle: the share image's WebAssembly and fonts, uploaded as `CompiledWasm` and
// `Data` modules (a Workers runtime compiles no WebAssembly from bytes at run time). The bundle imports each as
// `fan-polls-edge-module:<name>` (`share-image-assets.ts`); the edge build writes the files and the workerd config
// lists them. Read by the build (Node), never bundled.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { shareImageFontFiles } from '../node/share-image-assets.ts';

export const edgeModulePrefix = 'fan-polls-edge-module:';

export interface EdgeModule {
  /** The module's name beside `worker.js`. */
  readonly name: string;
  readonly type: 'wasm' | 'data';
  /** Its bytes, from the installed packages. */
  read(): Uint8Array;
}

const resolve = createRequire(import.meta.url).resolve;
const packageFile = (file: string) => () => readFileSync(resolve(file));

/**
 * satori's standalone ES build (`import`; `require` names the CommonJS one), whose HarfBuzz (text shaping) carries its
 * WebAssembly inline, as base64.
 */
export const satoriStandalone = resolve('satori/package.json').replace(
  /package\.json$/,
  'dist/standalone.js',
);

/** HarfBuzz's WebAssembly, taken out of satori's standalone build (the one base64 string that starts `\0asm`). */
function harfbuzzWasm(): Uint8Array {
  const inline = /"(AGFzbQ[A-Za-z0-9+/=]+)"/.exec(readFileSync(satoriStandalone, 'utf8'));
  if (inline?.[1] === undefined) throw new Error(`No inline WebAssembly in ${satoriStandalone}`);
  return Buffer.from(inline[1], 'base64');
}

export const edgeModules: readonly EdgeModule[] = [
  { name: 'satori-layout.wasm', type: 'wasm', read: packageFile('satori/layout.wasm') },
  { name: 'harfbuzz.wasm', type: 'wasm', read: harfbuzzWasm },
  { name: 'resvg.wasm', type: 'wasm', read: packageFile('@resvg/resvg-wasm/index_bg.wasm') },
  ...shareImageFontFiles.map(({ file }) => ({
    name: file.slice(file.lastIndexOf('/') + 1),
    type: 'data' as const,
    read: packageFile(file),
  })),
];
