// Load test of the partner proxy on loopback (autocannon): cached poll reads through the proxy against a bare Hono
// handler returning the same JSON, as a ratio, and how many requests reach the platform (the sandbox) meanwhile.
import { Hono } from 'hono';
import { createRequire } from 'node:module';
import { closeServer, listenOnLoopback } from '../../src/node/loopback-server.ts';
import { silentLogger } from '../../src/proxy/logger.ts';
import { startSandboxAndProxy } from '../support/stack.ts';

interface AutocannonResult {
  readonly requests: { readonly average: number };
  readonly latency: { readonly p50: number; readonly p99: number };
  readonly non2xx: number;
  readonly errors: number;
  readonly statusCodeStats: Record<string, { count: number }>;
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

export default async function proxyBench(): Promise<void> {
  let upstreamRequests = 0;
  const stack = await startSandboxAndProxy({
    proxy: {
      env: { FAN_POLLS_ALLOWED_ORIGINS: pageOrigin },
      deps: {
        logger: silentLogger,
        fetch: (input, init) => {
          upstreamRequests += 1;
          return globalThis.fetch(input, init);
        },
      },
    },
  });
  const { proxy } = stack;
  const list = (await (await fetch(`${proxy.url}/api/polls`)).json()) as { data: { id: string }[] };
  const pollId = list.data[0]?.id;
  if (pollId === undefined) throw new Error('The sandbox has no polls.');
  const pollPath = `/api/polls/${pollId}`;
  const pollResponse = await fetch(`${proxy.url}${pollPath}`, { headers: { Origin: pageOrigin } });
  const body = await pollResponse.text();
  const etag = pollResponse.headers.get('etag') ?? '';

  const bare = new Hono();
  bare.get('/api/polls/:pollId', (c) =>
    c.body(body, 200, { 'Content-Type': 'application/json; charset=utf-8' }),
  );
  const bareServer = await listenOnLoopback(bare.fetch, 0);

  const headers = { Origin: pageOrigin };
  // Alternating rounds, so that load from elsewhere on a shared machine hits both sides alike; the median is reported.
  const rounds: { bare: AutocannonResult; proxy: AutocannonResult; upstream: number }[] = [];
  for (let round = 0; round < roundCount; round += 1) {
    const bareRound = await autocannon({
      url: `${bareServer.url}${pollPath}`,
      connections,
      duration: durationSeconds,
      headers,
    });
    const upstreamBefore = upstreamRequests;
    const proxyRound = await autocannon({
      url: `${proxy.url}${pollPath}`,
      connections,
      duration: durationSeconds,
      headers,
    });
    rounds.push({ bare: bareRound, proxy: proxyRound, upstream: upstreamRequests - upstreamBefore });
  }
  const revalidated = await autocannon({
    url: `${proxy.url}${pollPath}`,
    connections,
    duration: durationSeconds,
    headers: { ...headers, 'If-None-Match': etag },
  });

  await closeServer(bareServer.server);
  await stack.close();

  const row = (name: string, result: AutocannonResult) =>
    `| ${name} | ${Math.round(result.requests.average)} | ${result.latency.p50} | ${result.latency.p99} | ${Object.keys(result.statusCodeStats).join(', ')} | ${result.errors} |`;
  console.log(
    `Poll ${pollId}, ${body.length} bytes of JSON; ${connections} connections, ${roundCount} alternating rounds of ${durationSeconds} s.`,
  );
  console.log('| server | requests/s | p50 ms | p99 ms | statuses | errors |');
  console.log('| --- | --- | --- | --- | --- | --- |');
  rounds.forEach((round, index) => {
    console.log(row(`round ${index + 1}: bare Hono handler, same JSON`, round.bare));
    console.log(row(`round ${index + 1}: proxy, cached read (200)`, round.proxy));
  });
  console.log(row('proxy, revalidation (If-None-Match, 304)', revalidated));
  const ratios = rounds.map((round) => round.proxy.requests.average / round.bare.requests.average);
  console.log(
    `proxy / bare throughput ratio per round: ${ratios.map((ratio) => ratio.toFixed(2)).join(', ')}; median ${median(ratios).toFixed(2)}`,
  );
  const upstream = rounds.reduce((sum, round) => sum + round.upstream, 0);
  const seconds = roundCount * durationSeconds;
  const served = rounds.reduce((sum, round) => sum + round.proxy.requests.average, 0) / roundCount;
  console.log(
    `upstream requests during ${seconds} s of proxy load: ${upstream} (${(upstream / seconds).toFixed(2)}/s, against ${Math.round(served)} reads/s served)`,
  );
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}
