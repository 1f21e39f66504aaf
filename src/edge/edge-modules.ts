// The Worker's modules beside its bundle: the share image's WebAssembly and fonts, uploaded as `CompiledWasm` and
// `Data` modules (a Workers runtime compiles no WebAssembly from bytes at run time). The bundle imports each as
// `fan-polls-edge-module:<name>` (`share-image-assets.ts`); the edge build writes the files and the workerd config
// lists them. Read by the build (Node), never bundled.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { shareImageFontFiles } from '../node/share-image-assets.ts';
import { scriptFallbackFonts } from '../proxy/share/fallback-fonts.ts';

export const edgeModulePrefix = 'fan-polls-edge-module:';
/**
 * A module of the bundle only: the fallback fonts the edge build carries, by their package path
 * (`{ '@fontsource/…woff': ArrayBuffer }`), each an uploaded module.
 */
export const edgeFallbackFontsModule = 'fan-polls-edge-fallback-fonts';

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
  ...[...shareImageFontFiles, ...scriptFallbackFonts].map(({ file }) => ({
    name: fileName(file),
    type: 'data' as const,
    read: packageFile(file),
  })),
];

/** The packages the uploaded fonts come from (`@fontsource/inter`, …), for their licences. */
export function edgeFontPackages(): string[] {
  const files = [...shareImageFontFiles, ...scriptFallbackFonts].map(({ file }) => file);
  return [...new Set(files.map((file) => file.split('/').slice(0, 2).join('/')))];
}

/** An uploaded font's module name: its file's name in its package. */
export function fileName(file: string): string {
  return file.slice(file.lastIndexOf('/') + 1);
}

/**
 * The code of `edgeFallbackFontsModule`: Arabic, Hebrew, Cyrillic and Greek. CJK and emoji (`wide-fallback-fonts.ts`,
 * 9 MB) stay on Node: with them the Worker would be about 11 MB compressed, over the Workers plans' 3 and 10 MB.
 */
export function edgeFallbackFontsCode(): string {
  const imports = scriptFallbackFonts.map(
    ({ file }, index) =>
      `import font${String(index)} from ${JSON.stringify(edgeModulePrefix + fileName(file))};`,
  );
  const entries = scriptFallbackFonts.map(
    ({ file }, index) => `  ${JSON.stringify(file)}: font${String(index)},`,
  );
  return `${imports.join('\n')}\nexport default {\n${entries.join('\n')}\n};\n`;
}
