// Latency at a given rate, measured as a client at that rate meets it: requests sent evenly spaced (open loop, at a
// millisecond's granularity), each one's latency counted from when it was due, not from when a free connection
// let it go (so a stalled server is not hidden: coordinated omission). autocannon cannot do this: its `overallRate`
// lets every connection send its second's quota back to back and then wait for the next second, so "half the
// maximum rate" is the maximum rate for half of each second, and it records each answer again at 1 ms steps below
// its latency (`Math.ceil(1 / rate)` as the expected interval). Its p99 at a rate was the saturated p99.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Pool } from 'undici';

export interface PacedLoad {
  readonly url: string;
  readonly method?: string;
  readonly headers?: Record<string, string>;
  readonly body?: string;
  /** Requests per second, sent evenly. */
  readonly rate: number;
  readonly durationSeconds: number;
  /**
   * Sent at the same rate on the same connections before the measured run, and not counted: a steady rate's latency,
   * not the connections' opening (each new one costs the server an accept and a parser; 130 to 150 ms at the start of
   * a 4,500/s run when the warm-up had its own pool).
   */
  readonly warmUpSeconds?: number;
  /** Keep-alive connections (requests beyond them wait for one, and that wait counts). */
  readonly connections: number;
}

export interface PacedFigures {
  /** Answers per second over the run (what was sent, if the server kept up). */
  readonly achievedRate: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  /** Status codes answered, and `error` for a request that got none. */
  readonly statuses: ReadonlySet<string>;
  /**
   * The generator's own event loop delay (p99, ms) over the measured run: an answer that arrived while its loop was
   * busy is timed that much late, so no p99 below this is measurable on the machine.
   */
  readonly generatorDelayP99Ms: number;
}

/** One paced run against `load.url`, after its warm-up; resolves when every request sent has been answered or failed. */
export async function pacedLatency(load: PacedLoad): Promise<PacedFigures> {
  const url = new URL(load.url);
  const pool = new Pool(url.origin, { connections: load.connections, pipelining: 1 });
  try {
    if ((load.warmUpSeconds ?? 0) > 0) await pacedRun(pool, load, load.warmUpSeconds ?? 0);
    return await pacedRun(pool, load, load.durationSeconds);
  } finally {
    await pool.close();
  }
}

async function pacedRun(pool: Pool, load: PacedLoad, durationSeconds: number): Promise<PacedFigures> {
  const url = new URL(load.url);
  const total = Math.round(load.rate * durationSeconds);
  const latencies = new Float64Array(total);
  const statuses = new Set<string>();
  const path = `${url.pathname}${url.search}`;
  const method = (load.method ?? 'GET') as 'GET';
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const started = performance.now();
  const answers: Promise<void>[] = [];
  let sent = 0;
  const send = (index: number, dueAt: number) => {
    answers.push(
      pool
        .request({
          path,
          method,
          ...(load.headers === undefined ? {} : { headers: load.headers }),
          ...(load.body === undefined ? {} : { body: load.body }),
        })
        .then(async (answer) => {
          await answer.body.dump();
          statuses.add(String(answer.statusCode));
          latencies[index] = performance.now() - dueAt;
        })
        .catch(() => {
          statuses.add('error');
          latencies[index] = performance.now() - dueAt;
        }),
    );
  };
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      // Every request due by now, each timed from its own due moment.
      while (sent < total && started + (sent * 1000) / load.rate <= now) {
        send(sent, started + (sent * 1000) / load.rate);
        sent += 1;
      }
      if (sent < total) setTimeout(tick, 1);
      else resolve();
    };
    tick();
  });
  await Promise.all(answers);
  const elapsed = (performance.now() - started) / 1000;
  delay.disable();
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (share: number) => sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? 0;
  return {
    achievedRate: total / elapsed,
    p50Ms: at(0.5),
    p99Ms: at(0.99),
    maxMs: sorted.at(-1) ?? 0,
    statuses,
    generatorDelayP99Ms: delay.percentile(99) / 1e6,
  };
}
