// The edge build on workerd beside the Node proxy (`npm run bench -- proxy`): cached poll reads and a signed-in fan's
// read of a poll with the fan's own vote, on loopback (autocannon), alternating rounds against the same sandbox, with workerd's CPU time from /proc (the Node proxy runs
// in this process with the load generator, so its CPU cannot be told apart: its figure is throughput only).
import { readFileSync } from 'node:fs';
import { csrfHeaderName, csrfHeaderValue, proxyRoutes } from '../../src/contracts/proxy-contract.ts';
import type { Poll } from '../../src/platform/types.ts';
import { recordBenchResults } from '../../src/dev/bench-results.ts';
import { silentLogger } from '../../src/proxy/logger.ts';
import { demoRegisteredApplication } from '../../src/sandbox/applications.ts';
import { callAt, signIn } from '../integration/proxy-harness.ts';
import { openRiversidePoll } from '../support/open-poll.ts';
import { startSandboxAndProxy } from '../support/stack.ts';
import { buildEdgeBundle, startWorkerd } from '../support/workerd.ts';
import { autocannon, median } from './load-rounds.ts';

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
    FAN_POLLS_PRESET: 'sandbox',
    FAN_POLLS_PLATFORM_API_URL: stack.sandbox.apiUrl,
    FAN_POLLS_PLATFORM_AUTH_URL: stack.sandbox.authUrl,
    FAN_POLLS_ALLOWED_ORIGINS: pageOrigin,
    FAN_POLLS_LOG_LEVEL: 'warn',
  });
  try {
    const list = (await (await fetch(`${stack.proxy.url}/api/polls?limit=50`)).json()) as { data: Poll[] };
    const cached = { path: `/api/polls/${list.data[0]?.id ?? ''}`, headers: { Origin: pageOrigin } };
    stack.sandbox.sandbox.state.throttle.requestsPerMinute = 0;
    stack.sandbox.sandbox.state.applications.register(
      demoRegisteredApplication([stack.proxy.config.callbackUrl, `${workerd.url}/auth/callback`]),
    );
    // The same fan signed in on each: a cookie of each one's own.
    const fanHeadersOn = async (url: string) => ({
      Origin: pageOrigin,
      Cookie: (await signIn({ call: callAt(url, []) }, { username: 'sam' })).cookie ?? '',
      [csrfHeaderName]: csrfHeaderValue,
    });
    const fanPath = proxyRoutes.userPoll(openRiversidePoll(list.data).id);
    const fanNode = { path: fanPath, headers: await fanHeadersOn(stack.proxy.url) };
    const fanEdge = { path: fanPath, headers: await fanHeadersOn(workerd.url) };
    const reads = [
      { name: 'cached read', node: cached, edge: cached },
      { name: 'fan read', node: fanNode, edge: fanEdge },
    ];
    const load = (url: string, read: { path: string; headers: Record<string, string> }, duration: number) =>
      autocannon({ url: `${url}${read.path}`, connections, duration, headers: read.headers });
    for (const read of reads) {
      await load(stack.proxy.url, read.node, 2);
      await load(workerd.url, read.edge, 2);
    }
    console.log(
      `${connections} connections, ${roundCount} alternating rounds of ${durationSeconds} s after a 2 s warm-up. The fan read: ${fanPath}, the platform's answer each time.`,
    );
    console.log(
      '| read | round | Node requests/s | workerd requests/s | workerd / Node | workerd CPU ms per 1,000 reads | workerd reads per CPU-second | p99 ms Node / workerd | statuses Node / workerd |',
    );
    console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
    /** Per read: workerd's throughput over Node's, and workerd's reads per CPU-second, round by round. */
    const perRound = new Map(
      reads.map((read) => [read.name, { ratios: [] as number[], perCpu: [] as number[] }]),
    );
    for (let round = 1; round <= roundCount; round += 1) {
      for (const read of reads) {
        const node = await load(stack.proxy.url, read.node, durationSeconds);
        const pid = workerd.pid();
        const cpuBefore = pid === undefined ? 0 : cpuSecondsOf(pid);
        const edge = await load(workerd.url, read.edge, durationSeconds);
        const cpu = pid === undefined ? 0 : cpuSecondsOf(pid) - cpuBefore;
        const ratio = edge.requests.average / node.requests.average;
        perRound.get(read.name)?.ratios.push(ratio);
        perRound.get(read.name)?.perCpu.push(edge.requests.total / cpu);
        const statuses = (result: typeof node) => Object.keys(result.statusCodeStats).join(' ');
        console.log(
          `| ${read.name} | ${round} | ${Math.round(node.requests.average)} | ${Math.round(edge.requests.average)} | ${ratio.toFixed(2)} | ${((cpu * 1000 * 1000) / edge.requests.total).toFixed(1)} | ${Math.round(edge.requests.total / cpu)} | ${node.latency.p99} / ${edge.latency.p99} | ${statuses(node)} / ${statuses(edge)} |`,
        );
      }
    }
    const cachedRounds = perRound.get('cached read') ?? { ratios: [], perCpu: [] };
    const fan = perRound.get('fan read') ?? { ratios: [], perCpu: [] };
    const rounded = (values: readonly number[], digits = 0) =>
      values.map((value) => value.toLocaleString('en', { maximumFractionDigits: digits })).join(', ');
    await recordBenchResults('proxy-edge', [
      {
        id: 'cached-read-over-node',
        what: "edge build on workerd: cached reads a second over the Node proxy's, median round",
        value: Number(median(cachedRounds.ratios).toFixed(2)),
        unit: 'x',
        detail: `rounds ${rounded(cachedRounds.ratios, 2)}`,
      },
      {
        id: 'cached-reads-per-cpu',
        what: 'edge build on workerd: cached reads per CPU-second, the slowest round',
        value: Math.round(Math.min(...cachedRounds.perCpu)),
        unit: '',
        detail: `${rounded([Math.max(...cachedRounds.perCpu)])} the fastest`,
      },
      {
        id: 'fan-reads-per-cpu',
        what: "edge build on workerd: a fan's reads per CPU-second, the slowest round",
        value: Math.round(Math.min(...fan.perCpu)),
        unit: '',
        detail: `${rounded([Math.max(...fan.perCpu)])} the fastest`,
      },
    ]);
  } finally {
    await workerd.close();
    await stack.close();
  }
}
