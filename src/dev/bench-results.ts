// The benches' figures of record: one JSON file per bench in test/bench/results/, written at the end of its run
// (`recordBenchResults`) and rendered into BENCHMARKS.md (`benchmarks-markdown.ts`).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';

const root = fileURLToPath(new URL('../..', import.meta.url));
export const benchFolder = join(root, 'test', 'bench');
export const resultsFolder = join(benchFolder, 'results');

/** What a figure must be to meet its target: `value <comparison> target.value`. */
export interface Target {
  readonly comparison: '<=' | '>=' | '<' | '>' | '=';
  readonly value: number;
}

/** The machine a figure was measured on; fields left out were not recorded. */
export interface Machine {
  readonly cores: number;
  readonly cpu?: string;
  readonly memoryGiB?: number;
  readonly node?: string;
  /** The one-minute load average when the figures were recorded: over 2, rates are not comparable. */
  readonly load?: number;
}

/** A figure a bench measures, as it computed it. */
export interface Figure {
  /** Stable within its bench: a new run replaces the figure of the same id. */
  readonly id: string;
  /** The figure's name in words. */
  readonly what: string;
  readonly value: number;
  /** `ms`, `x` (a ratio), `B`, `requests`…; empty for a plain number. */
  readonly unit: string;
  /** The figures around it, in words (the parts of a ratio, other runs, peers). */
  readonly detail?: string;
  readonly target?: Target;
}

/** A figure with where it comes from. */
export interface RecordedFigure extends Figure {
  /** `YYYY-MM-DD`, UTC. */
  readonly date: string;
  /** The short commit the bench ran on, with `+` when the tree had uncommitted changes. */
  readonly commit: string;
  readonly machine: Machine;
  /** The command that measures it again. */
  readonly command: string;
}

export interface BenchResults {
  readonly bench: string;
  readonly figures: readonly RecordedFigure[];
}

export function metTarget(figure: Figure): boolean | undefined {
  const target = figure.target;
  if (target === undefined) return undefined;
  const { value } = figure;
  switch (target.comparison) {
    case '<=':
      return value <= target.value;
    case '>=':
      return value >= target.value;
    case '<':
      return value < target.value;
    case '>':
      return value > target.value;
    case '=':
      return value === target.value;
  }
}

const resultsFile = (bench: string): string => join(resultsFolder, `${bench}.json`);

/** Every bench's results, in the order of the bench files' names. */
export function readBenchResults(folder = resultsFolder): BenchResults[] {
  return readdirSync(folder)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => JSON.parse(readFileSync(join(folder, name), 'utf8')) as BenchResults);
}

function readOne(bench: string): BenchResults {
  try {
    return JSON.parse(readFileSync(resultsFile(bench), 'utf8')) as BenchResults;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { bench, figures: [] };
    throw error;
  }
}

const git = (...args: string[]): string => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();

/** The commit the code under measure is at, `+` when a tracked file of the code differs from it. */
function currentCommit(): string {
  const head = git('rev-parse', '--short=7', 'HEAD');
  const changed = git(
    'diff',
    '--name-only',
    'HEAD',
    '--',
    'src',
    'widget',
    'extension',
    'test',
    'package-lock.json',
  )
    .split('\n')
    .filter((file) => file !== '' && !file.startsWith('test/bench/results/'));
  return changed.length > 0 ? `${head}+` : head;
}

function thisMachine(): Machine {
  return {
    cores: cpus().length,
    cpu: cpus()[0]?.model.trim() ?? 'unknown',
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    load: Math.round((loadavg()[0] ?? 0) * 10) / 10,
  };
}

/** The variables that choose what a bench runs, as the command line gives them; a path is not a reproducible value. */
const benchVariable = /^(WIDGET_BENCH|PROXY_BENCH|PROXY_FAULTS|STREAM_BENCH)_/;

/** `npm run bench -- <name>` that runs this bench alone, with the bench variables of this run. */
export function commandFor(bench: string, env: NodeJS.ProcessEnv = process.env): string {
  const others = readdirSync(benchFolder).filter(
    (name) => name.endsWith('.bench.ts') && name !== `${bench}.bench.ts`,
  );
  const name = others.some((other) => other.includes(bench)) ? `${bench}.bench` : bench;
  const variables = Object.entries(env)
    .filter(([key, value]) => benchVariable.test(key) && value !== undefined && value !== '')
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, value = '']) => {
      if (value.startsWith('/')) return `${key}=<path>`;
      return /^[\w.,:=-]+$/.test(value) ? `${key}=${value}` : `${key}='${value}'`;
    });
  return [...variables, `npm run bench -- ${name}`].join(' ');
}

/**
 * Records `figures` as this run's, on this commit and machine, in `test/bench/results/<bench>.json`: a figure
 * replaces the one of the same id, and the others keep the run they come from.
 */
export async function recordBenchResults(bench: string, figures: readonly Figure[]): Promise<void> {
  const run = {
    date: new Date().toISOString().slice(0, 10),
    commit: currentCommit(),
    machine: thisMachine(),
    command: commandFor(bench),
  };
  const fresh = new Map(figures.map((figure) => [figure.id, { ...figure, ...run }]));
  const kept = readOne(bench).figures.map((figure) => fresh.get(figure.id) ?? figure);
  const added = [...fresh.values()].filter((figure) => !kept.some(({ id }) => id === figure.id));
  const results: BenchResults = { bench, figures: [...kept, ...added] };
  mkdirSync(resultsFolder, { recursive: true });
  const file = resultsFile(bench);
  const text = await format(JSON.stringify(results, null, 2), {
    ...(await resolveConfig(file)),
    filepath: file,
  });
  writeFileSync(file, text);
  console.log(`Recorded ${String(figures.length)} figures in ${file}`);
}
