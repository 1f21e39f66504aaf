// `npm run bench`: runs every `*.bench.ts` in this folder in turn; each prints its own figures and records them in
// `results/<name>.json`. Then BENCHMARKS.md is written again from the results.
import { readdir } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { writeBenchmarks } from '../../src/dev/write-benchmarks.ts';

const folder = fileURLToPath(new URL('.', import.meta.url));
const only = process.argv[2];
const files = (await readdir(folder)).filter((name) => name.endsWith('.bench.ts')).sort();

for (const file of files) {
  if (only && !file.includes(only)) continue;
  console.log(`\n## ${file}`);
  const module = (await import(pathToFileURL(folder + file).href)) as { default?: () => Promise<void> };
  if (typeof module.default !== 'function') throw new Error(`${file} must export a default async function.`);
  await module.default();
}
await writeBenchmarks();
