// Brotli and gzip copies of every text file a build serves (`<file>.br`, `<file>.gz` beside it), made once at build
// time at each format's highest level, so that the proxy answers compressed without compressing on each request (and
// a CDN in front, or none, sends the same small bytes).
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { precompressedCodings, type PrecompressedCoding } from '../../src/contracts/precompressed.ts';

/** Files worth compressing: text, above a size where the headers would outweigh the saving. */
const compressible = /\.(js|mjs|css|html|json|svg|txt|map)$/;
const smallestWorthIt = 512;

const compressors: Record<PrecompressedCoding, (bytes: Buffer) => Promise<Buffer>> = {
  br: (bytes) =>
    promisify(brotliCompress)(bytes, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength,
      },
    }),
  gzip: (bytes) => promisify(gzip)(bytes, { level: constants.Z_BEST_COMPRESSION }),
};

/**
 * Writes the compressed copies of every compressible file under `folder` whose copy is missing or older than the
 * file; a copy that would not be smaller is not written. Resolves with the number of files written.
 */
export async function precompressFolder(folder: string): Promise<number> {
  let written = 0;
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  for (const entry of entries) {
    if (!entry.isFile() || !compressible.test(entry.name)) continue;
    const file = join(entry.parentPath, entry.name);
    const source = await stat(file);
    if (source.size < smallestWorthIt) continue;
    const bytes = await readFile(file);
    for (const coding of precompressedCodings) {
      const copy = `${file}${coding.suffix}`;
      const existing = await stat(copy).catch(() => undefined);
      if (existing !== undefined && existing.mtimeMs >= source.mtimeMs) continue;
      const compressed = await compressors[coding.name](bytes);
      if (compressed.byteLength >= bytes.byteLength) continue;
      await writeFile(copy, compressed);
      written += 1;
    }
  }
  return written;
}
