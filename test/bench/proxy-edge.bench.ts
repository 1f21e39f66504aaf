// The edge build on workerd beside the Node proxy (`npm run bench -- proxy`): cached poll reads on loopback
// (autocannon), alternating rounds against the same sandbox, with workerd's CPU time from /proc (the Node proxy runs
// in this process with the load generator, so its CPU cannot be told apart: its figure is throughput only).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { silentLogger } from '../../src/proxy/logger.ts';
import { startSandboxAndProxy } from '../support/stack.ts';
import { buildEdgeBundle, startWorkerd } from '../support/workerd.ts';

interface AutocannonResult {
  readonly requests: { readonly average: number; readonly total: number };
  readonly latency: { readonly p50: number; readonly p99: number };
  readonly errors: number;
}
type Autocannon = (options: {
  url: string;
  connections: number;
  duration: number;
  headers?: Record<string, string>;
}) => Promise<AutocannonResult>;
// autocannon ships no types; this is the one call used.
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

const connections = 50;
const durationSeconds = Number(process.env.PROXY_BENCH_SECONDS ?? 5);
const roundCount = 3;
const pageOrigin = 'http://127.0.0.1:4999';
/** Clock ticks per second of /proc's CPU times (Linux's USER_HZ). */
const ticksPerSecond = 100;

/** User and system CPU seconds of a process so far. */
function cpuSecondsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
}

export default async function edgeBench(): Promise<void> {
  const bundle = await buildEdgeBundle();
  const stack = await startSandboxAndProxy({
    proxy: { env: { FAN_POLLS_ALLOWED_ORIGINS: pageOrigin }, deps: { logger: silentLogger } },
  });
  const workerd = await startWorkerd(bundle, {
    FAN_POLLS_PLATFORM_API_URL: stack.sandbox.apiUrl,
    FAN_POLLS_PLATFORM_AUTH_URL: stack.sandbox.authUrl,
    FAN_POLLS_ALLOWED_ORIGINS: pageOrigin,
    FAN_POLLS_LOG_LEVEL: 'warn',
  });
  try {
    const list = (await (await fetch(`${stack.proxy.url}/api/polls`)).json()) as { data: { id: string }[] };
    const pollPath = `/api/polls/${list.data[0]?.id ?? ''}`;
    const headers = { Origin: pageOrigin };
    const load = (url: string, duration: number) =>
      autocannon({ url: `${url}${pollPath}`, connections, duration, headers });
    await load(stack.proxy.url, 2);
    await load(workerd.url, 2);
    console.log(
      `Cached read of ${pollPath}; ${connections} connections, ${roundCount} alternating rounds of ${durationSeconds} s after a 2 s warm-up.`,
    );
    console.log(
      '| round | Node requests/s | workerd requests/s | workerd / Node | workerd CPU ms per 1,000 reads | workerd reads per CPU-second | p99 ms Node / workerd |',
    );
    console.log('| --- | --- | --- | --- | --- | --- | --- |');
    for (let round = 1; round <= roundCount; round += 1) {
      const node = await load(stack.proxy.url, durationSeconds);
      const pid = workerd.pid();
      const cpuBefore = pid === undefined ? 0 : cpuSecondsOf(pid);
      const edge = await load(workerd.url, durationSeconds);
      const cpu = pid === undefined ? 0 : cpuSecondsOf(pid) - cpuBefore;
      const ratio = edge.requests.average / node.requests.average;
      console.log(
        `| ${round} | ${Math.round(node.requests.average)} | ${Math.round(edge.requests.average)} | ${ratio.toFixed(2)} | ${((cpu * 1000 * 1000) / edge.requests.total).toFixed(1)} | ${Math.round(edge.requests.total / cpu)} | ${node.latency.p99} / ${edge.latency.p99} |`,
      );
    }
  } finally {
    await workerd.close();
    await stack.close();
  }
}
