// `npm run docs` (and `npm run bench` after its benches): writes BENCHMARKS.md from test/bench/results/.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { readBenchResults } from './bench-results.ts';
import { benchmarksMarkdown } from './benchmarks-markdown.ts';

export const benchmarksPath = fileURLToPath(new URL('../../BENCHMARKS.md', import.meta.url));

/** BENCHMARKS.md as the recorded results make it, formatted as the repository formats Markdown. */
export async function currentBenchmarks(): Promise<string> {
  return format(benchmarksMarkdown(readBenchResults()), {
    ...(await resolveConfig(benchmarksPath)),
    filepath: benchmarksPath,
  });
}

export async function writeBenchmarks(): Promise<void> {
  writeFileSync(benchmarksPath, await currentBenchmarks());
  console.log(`Wrote ${benchmarksPath}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await writeBenchmarks();
