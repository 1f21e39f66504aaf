// BENCHMARKS.md is what `npm run docs` renders from the benches' recorded results (test/bench/results/).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { commandFor, metTarget, readBenchResults } from './bench-results.ts';
import { benchmarksMarkdown, withUnit } from './benchmarks-markdown.ts';
import { benchmarksPath, currentBenchmarks } from './write-benchmarks.ts';

describe('BENCHMARKS.md', () => {
  it('is what `npm run docs` writes from test/bench/results/ (run it after a bench)', async () => {
    expect(readFileSync(benchmarksPath, 'utf8'), 'BENCHMARKS.md is stale: run `npm run docs`').toBe(
      await currentBenchmarks(),
    );
  });

  it('fits on two screens, in fewer bytes than the hand-written one had (18.7 kB)', () => {
    const page = readFileSync(benchmarksPath, 'utf8');
    expect(page.split('\n').length).toBeLessThanOrEqual(110);
    expect(Buffer.byteLength(page)).toBeLessThanOrEqual(18_000);
  });

  it('gives every figure a date, a commit, a machine and a command, each id once in its bench', () => {
    for (const { bench, figures } of readBenchResults()) {
      const ids = figures.map(({ id }) => id);
      expect(new Set(ids).size, bench).toBe(ids.length);
      for (const figure of figures) {
        expect(figure.date, figure.id).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        expect(figure.commit, figure.id).toMatch(/^[0-9a-f]{7,}\+?$/);
        expect(figure.machine.cores, figure.id).toBeGreaterThan(0);
        expect(figure.command, figure.id).toMatch(/npm run /);
      }
    }
  });
});

describe('the rendering', () => {
  const figure = {
    id: 'open-card',
    what: 'open card over its floor',
    value: 1.15,
    unit: 'x',
    target: { comparison: '<=', value: 1.3 },
    date: '2026-11-26',
    commit: '233ab5c+',
    machine: { cores: 2, cpu: 'Test CPU', memoryGiB: 7.8, node: 'v20.20.2', load: 0.4 },
    command: "WIDGET_BENCH_CASES='open card' npm run bench -- widget",
  } as const;

  it('says whether each figure meets its target, with where it comes from', () => {
    expect(metTarget(figure)).toBe(true);
    expect(metTarget({ ...figure, value: 1.31 })).toBe(false);
    expect(metTarget({ ...figure, target: undefined })).toBeUndefined();
    expect(withUnit(20515, 'B')).toBe('20,515 B');
    const page = benchmarksMarkdown([
      { bench: 'widget', figures: [figure, { ...figure, id: 'slow', value: 2, detail: 'a | b' }] },
    ]);
    expect(page).toContain('| `widget.bench.ts` | value | target | met | measured | run |');
    expect(page).toContain(
      '| open card over its floor | **1.15x** | ≤ 1.3x | yes | 2026-11-26, 233ab5c+ | 1 |',
    );
    expect(page).toContain('| **2x** (a \\| b) | ≤ 1.3x | **no** |');
    expect(page).toContain(
      "1. 2026-11-26, 233ab5c+, 2 × Test CPU, 7.8 GiB, Node v20.20.2, load 0.4: `WIDGET_BENCH_CASES='open card' npm run bench -- widget`",
    );
    expect(page).toContain('A commit marked `+` ran with uncommitted changes');
  });

  it('names the command that runs one bench alone, with its variables and no paths', () => {
    expect(commandFor('widget', {})).toBe('npm run bench -- widget');
    expect(commandFor('proxy', { PROXY_BENCH_ONLY: 'peers', PROXY_BENCH_PREVIOUS: '/somewhere/else' })).toBe(
      'PROXY_BENCH_ONLY=peers PROXY_BENCH_PREVIOUS=<path> npm run bench -- proxy.bench',
    );
    expect(commandFor('widget', { WIDGET_BENCH_CASES: 'open card', HOME: '/root' })).toBe(
      "WIDGET_BENCH_CASES='open card' npm run bench -- widget",
    );
  });
});
