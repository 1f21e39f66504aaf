// Loaded into a bench's server process (`--expose-gc --import`): on SIGUSR2 it collects garbage, then writes
// `process.memoryUsage()` as JSON to `HEAP_PROBE_FILE` (whole: written beside it, then renamed). Nothing else in the
// server changes.
import { renameSync, writeFileSync } from 'node:fs';

const file = process.env.HEAP_PROBE_FILE;
if (file !== undefined && file !== '') {
  process.on('SIGUSR2', () => {
    (globalThis as { gc?: () => void }).gc?.();
    writeFileSync(`${file}.partial`, JSON.stringify(process.memoryUsage()));
    renameSync(`${file}.partial`, file);
  });
}
