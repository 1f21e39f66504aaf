/**
 * The compressed copies a build writes beside each text file it serves (`widget/build/precompressed-files.ts`) and
 * that the proxy answers with (`src/proxy/precompressed-answer.ts`), in the proxy's order of preference.
 */
export const precompressedCodings = [
  { name: 'br', suffix: '.br' },
  { name: 'gzip', suffix: '.gz' },
] as const;

export type PrecompressedCoding = (typeof precompressedCodings)[number]['name'];
