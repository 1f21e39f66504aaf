// The proxy bench's measurement: autocannon against servers in processes of their own, alternating rounds per
// server CPU-second (from /proc), then p50/p99 at shares of each one's maximum rate. One load is one request shape
// (a path, a method, headers, a body) against one server.
import { createRequire } from 'node:module';
import { pacedLatency } from './paced-load.ts';
import type { PeerServer } from './peer-servers.ts';

export interface AutocannonResult {
  readonly requests: { readonly average: number; readonly total: number };
  readonly latency: { readonly p50: number; readonly p99: number };
  readonly non2xx: number;
  readonly errors: number;
  readonly statusCodeStats: Record<string, { count: number }>;
}

export interface AutocannonOptions {
  url: string;
  connections: number;
  duration: number;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  requests?: { path: string }[];
  /** Requests per second across all connections. */
  overallRate?: number;
}

// autocannon ships no types; this is the one call used.
export const autocannon = createRequire(import.meta.url)('autocannon') as (
  options: AutocannonOptions,
) => Promise<AutocannonResult>;

/** One request shape against one server. */
export interface Load {
  /** The row's name: the server's and the request's. */
  readonly name: string;
  readonly server: PeerServer;
  readonly path: string;
  readonly method?: 'GET' | 'POST';
  readonly headers?: Record<string, string>;
  readonly body?: string;
}

export interface LoadFigures {
  readonly rps: number[];
  readonly perCpu: number[];
  readonly cpuShare: number[];
  readonly statuses: Set<string>;
}

export interface RoundSettings {
  readonly connections: number;
  readonly durationSeconds: number;
  readonly warmUpSeconds: number;
  readonly roundCount: number;
}

/** One run of a load: the result and the server's CPU seconds meanwhile. */
export async function measureLoad(
  load: Load,
  options: { connections: number; duration: number; overallRate?: number },
): Promise<{ result: AutocannonResult; cpu: number; perCpuSecond: number }> {
  const before = load.server.cpuSeconds();
  const result = await autocannon({
    url: `${load.server.url}${load.path}`,
    ...(load.method === undefined ? {} : { method: load.method }),
    ...(load.headers === undefined ? {} : { headers: load.headers }),
    ...(load.body === undefined ? {} : { body: load.body }),
    ...options,
  });
  const cpu = load.server.cpuSeconds() - before;
  return { result, cpu, perCpuSecond: result.requests.total / Math.max(cpu, 0.01) };
}

/**
 * Every load warmed up, then `roundCount` rounds of all of them, the order reversed every other round so that a
 * burst of load from elsewhere on a shared machine does not always hit the same one.
 */
export async function alternatingRounds(
  loads: readonly Load[],
  settings: RoundSettings,
): Promise<Map<string, LoadFigures>> {
  const { connections } = settings;
  for (const load of loads) await measureLoad(load, { connections, duration: settings.warmUpSeconds });
  const rounds = new Map<string, LoadFigures>();
  for (let round = 0; round < settings.roundCount; round += 1) {
    const order = round % 2 === 0 ? loads : [...loads].reverse();
    for (const load of order) {
      const { result, cpu, perCpuSecond } = await measureLoad(load, {
        connections,
        duration: settings.durationSeconds,
      });
      const figures = rounds.get(load.name) ?? { rps: [], perCpu: [], cpuShare: [], statuses: new Set() };
      figures.rps.push(result.requests.average);
      figures.perCpu.push(perCpuSecond);
      figures.cpuShare.push(cpu / settings.durationSeconds);
      for (const status of Object.keys(result.statusCodeStats)) figures.statuses.add(status);
      rounds.set(load.name, figures);
    }
  }
  return rounds;
}

/**
 * Markdown rows of p50/p99 for each load at 50% and 90% of its median maximum rate in `rounds`, and at `sameRate`
 * when given (every server at one rate: what the machine itself adds at that load), sent evenly (`paced-load.ts`:
 * autocannon's own rate limit sends in bursts), after a warm-up at that rate on the same connections.
 */
export async function latencyRows(
  loads: readonly Load[],
  rounds: ReadonlyMap<string, LoadFigures>,
  settings: RoundSettings,
  sameRate?: { readonly rate: number; readonly label: string },
): Promise<string[]> {
  const rows: string[] = [];
  for (const load of loads) {
    const max = median(rounds.get(load.name)?.rps ?? [0]);
    const rates = [0.5, 0.9].map((share) => {
      const rate = Math.max(1, Math.round(max * share));
      return { rate, label: `${String(share * 100)}% = ${String(rate)}/s` };
    });
    if (sameRate !== undefined) rates.push(sameRate);
    for (const { rate, label } of rates) {
      const figures = await pacedLatency({
        url: `${load.server.url}${load.path}`,
        ...(load.method === undefined ? {} : { method: load.method }),
        ...(load.headers === undefined ? {} : { headers: load.headers }),
        ...(load.body === undefined ? {} : { body: load.body }),
        rate,
        connections: settings.connections,
        // At least 3 s: at 4,000/s a fresh pool's backlog of connections being opened lasted up to 1.75 s.
        warmUpSeconds: Math.max(3, settings.warmUpSeconds),
        durationSeconds: settings.durationSeconds,
      });
      rows.push(
        `| ${load.name} | ${label} | ${String(Math.round(figures.achievedRate))} | ${figures.p50Ms.toFixed(1)} | ${figures.p99Ms.toFixed(1)} | ${figures.maxMs.toFixed(1)} | ${figures.generatorDelayP99Ms.toFixed(1)} | ${[...figures.statuses].join(', ')} |`,
      );
    }
  }
  return rows;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}
