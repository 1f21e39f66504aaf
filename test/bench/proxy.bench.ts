// Load test of the partner proxy on loopback (autocannon), with Redis configured (Debian's redis-server on a free
// port). First the peers and the fan's routes, each server in its own process (`proxy-peers.ts`). Then,
// in-process: cached poll reads through the proxy against a bare Hono handler returning the same JSON, as a ratio;
// how many requests reach the platform meanwhile; three instances on one Redis (upstream reads per freshness
// window); a fan's read over a Redis session (p50/p99); Redis memory per 10,000 sessions; the proxy under faults.
import { Hono } from 'hono';
import { createClient } from '@redis/client';
import { closeServer, listenOnLoopback } from '../../src/node/loopback-server.ts';
import { csrfHeaderName, csrfHeaderValue } from '../../src/contracts/proxy-contract.ts';
import { recordBenchResults } from '../../src/dev/bench-results.ts';
import { silentLogger } from '../../src/proxy/logger.ts';
import { signIn, startHarness } from '../integration/proxy-harness.ts';
import { startRedis, type TestRedis } from '../support/redis-server.ts';
import { startSandboxAndProxy } from '../support/stack.ts';
import { autocannon, median, type AutocannonResult } from './load-rounds.ts';
import { analyticsCost } from './proxy-analytics.ts';
import { peers } from './proxy-peers.ts';

const connections = 50;
const durationSeconds = Number(process.env.PROXY_BENCH_SECONDS ?? 5);
const roundCount = 3;
const warmUpSeconds = 2;
const pageOrigin = 'http://127.0.0.1:4999';

export default async function proxyBench(): Promise<void> {
  const redis = await startRedis();
  try {
    // PROXY_BENCH_ONLY=peers runs the peer comparison alone (=fan its fan routes alone, =analytics what counting
    // costs); =faults the last part alone.
    const only = process.env.PROXY_BENCH_ONLY;
    if (only === undefined || only === 'peers' || only === 'fan')
      await peers(redis, { connections, durationSeconds, warmUpSeconds, roundCount });
    if (only === 'peers' || only === 'fan') return;
    if (only === undefined || only === 'analytics')
      await analyticsCost(redis, { connections, durationSeconds, warmUpSeconds, roundCount });
    if (only === 'analytics') return;
    if (only !== 'faults') {
      await cachedReads(redis);
      await threeInstances(redis);
      await fanReadsAndSessionMemory(redis);
    }
    await underFaults();
  } finally {
    await redis.close();
  }
}

async function cachedReads(redis: TestRedis): Promise<void> {
  let upstreamRequests = 0;
  const stack = await startSandboxAndProxy({
    proxy: {
      env: { FAN_POLLS_ALLOWED_ORIGINS: pageOrigin, FAN_POLLS_REDIS_URL: redis.url },
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
  // Both servers warmed up first (the JIT compiles the proxy's longer path during the first seconds), then measured.
  for (const url of [bareServer.url, proxy.url]) {
    await autocannon({ url: `${url}${pollPath}`, connections, duration: warmUpSeconds, headers });
  }
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
    `With Redis configured. Poll ${pollId}, ${body.length} bytes of JSON; ${connections} connections, ${roundCount} alternating rounds of ${durationSeconds} s after a ${warmUpSeconds} s warm-up of each.`,
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

/** Three proxies on one Redis and one sandbox, reads spread over them: how many reach the platform per freshness window. */
async function threeInstances(redis: TestRedis): Promise<void> {
  const harness = await startHarness({ redisUrl: redis.url }, { logger: silentLogger });
  const instances = [harness, await harness.addInstance(), await harness.addInstance()];
  try {
    const list = (await (await harness.call('/api/polls?limit=1')).json()) as { data: { id: string }[] };
    const pollPath = `/api/polls/${list.data[0]?.id ?? ''}`;
    const isPollRead = (call: { method: string; url: URL }) =>
      call.method === 'GET' && call.url.pathname.startsWith('/polls/');
    const before = harness.upstream.filter(isPollRead).length;
    const seconds = durationSeconds * 2;
    const results = await Promise.all(
      instances.map((instance) =>
        autocannon({
          url: `${instance.proxy.url}${pollPath}`,
          connections: Math.ceil(connections / 3),
          duration: seconds,
          headers: { Origin: pageOrigin },
        }),
      ),
    );
    const reads = harness.upstream.filter(isPollRead).length - before;
    const windows = seconds / harness.proxy.config.pollCacheSeconds;
    const served = results.reduce((sum, result) => sum + result.requests.average, 0);
    console.log(
      `three instances on one Redis, ${seconds} s, ${Math.round(served)} reads/s served in all: ${reads} upstream poll reads = ${(reads / windows).toFixed(2)} per ${harness.proxy.config.pollCacheSeconds} s freshness window (target <= 3)`,
    );
    await recordBenchResults('proxy', [
      {
        id: 'three-instances-upstream-reads',
        what: `three instances on one Redis: upstream reads per ${String(harness.proxy.config.pollCacheSeconds)} s freshness window`,
        value: Number((reads / windows).toFixed(2)),
        unit: '',
        target: { comparison: '<=', value: 3 },
      },
    ]);
  } finally {
    for (const instance of instances.slice(1)) await instance.close();
    await harness.close();
  }
}

/** A signed-in fan's read (`/api/user/me`) through a Redis session, and what 10,000 sessions cost Redis. */
async function fanReadsAndSessionMemory(redis: TestRedis): Promise<void> {
  const harness = await startHarness({ redisUrl: redis.url }, { logger: silentLogger });
  const client = createClient({ url: redis.url });
  await client.connect();
  try {
    const { cookie } = await signIn(harness, { username: 'sam' });
    // The fan's reads go to the platform each time: the sandbox's quota would answer 429 within a second.
    harness.sandbox.sandbox.state.throttle.requestsPerMinute = 0;
    const fanRead = await autocannon({
      url: `${harness.proxy.url}/api/user/me`,
      connections: 10,
      duration: durationSeconds,
      headers: { Origin: 'http://127.0.0.1:4999', Cookie: cookie ?? '', [csrfHeaderName]: csrfHeaderValue },
    });
    console.log(
      `fan read GET /api/user/me over a Redis session (the platform's /user/me each time), 10 connections, ${durationSeconds} s: ${Math.round(fanRead.requests.average)} requests/s, p50 ${fanRead.latency.p50} ms, p99 ${fanRead.latency.p99} ms, statuses ${Object.keys(fanRead.statusCodeStats).join(', ')}`,
    );

    await client.flushAll();
    const usedMemory = async () => Number(/used_memory:(\d+)/.exec(await client.info('memory'))?.[1] ?? 0);
    const before = await usedMemory();
    const sessions = harness.proxy.proxy.runtime.sessions;
    const count = 10_000;
    // Tokens as long as the platform's (a JWT-sized access token, a uuid refresh token).
    const tokens = {
      accessToken: 'a'.repeat(1100),
      refreshToken: crypto.randomUUID(),
      expiresAt: Date.now() + 3_600_000,
    };
    for (let index = 0; index < count; index += 100) {
      await Promise.all(
        Array.from({ length: 100 }, () =>
          sessions.create({ userId: crypto.randomUUID(), tokens, signInOrigin: 'https://www.club.example' }),
        ),
      );
    }
    const after = await usedMemory();
    console.log(
      `Redis memory for ${count.toLocaleString('en')} sessions (1,100-character access token): ${((after - before) / 1024 / 1024).toFixed(1)} MiB (${Math.round((after - before) / count)} bytes a session)`,
    );
    await recordBenchResults('proxy', [
      {
        id: 'redis-memory-sessions',
        what: 'Redis memory per 10,000 sessions (1,100-character access token)',
        value: Number((((after - before) / 1024 / 1024) * (10_000 / count)).toFixed(1)),
        unit: 'MiB',
      },
    ]);
  } finally {
    await client.close();
    await harness.close();
  }
}

/**
 * The proxy under a bad minute: platform requests during a 60 s outage and under a cache-busting flood,
 * and how long a reader of a cached poll waits while the platform takes 30 s. The outage and the flood run on the
 * proxy's clock moved by hand (60 s of traffic in a few seconds), the slow platform in real time.
 */
async function underFaults(): Promise<void> {
  let shift = 0;
  const harness = await startHarness(
    { clientAddressHeader: 'X-Forwarded-For' },
    { logger: silentLogger, now: () => Date.now() + shift },
  );
  const faults = harness.sandbox.sandbox.state.faults;
  harness.sandbox.sandbox.state.throttle.requestsPerMinute = 0;
  try {
    const { cookie } = await signIn(harness, { username: 'sam' });
    const fan = { Origin: 'http://127.0.0.1:4999', Cookie: cookie ?? '', [csrfHeaderName]: csrfHeaderValue };
    await harness.call('/api/polls?limit=5');

    // A 60 s outage: every platform answer 503; a reader and a fan every 100 ms.
    faults.failNext(1_000_000, 503);
    let before = harness.upstream.length;
    for (let tenth = 0; tenth < 600; tenth += 1) {
      shift += 100;
      await harness.call('/api/polls?limit=5');
      await fetch(`${harness.proxy.url}/api/user/me`, { headers: fan });
    }
    const duringOutage = harness.upstream.length - before;
    faults.clear();
    shift += 10 * 60_000;

    // A cache-busting flood: 2,000 distinct anonymous queries from 500 addresses within one minute.
    before = harness.upstream.length;
    const floodStartedAt = Date.now() + shift;
    let refused = 0;
    for (let index = 0; index < 2000; index += 1) {
      shift += 30;
      const day = String(1 + (index % 28)).padStart(2, '0');
      const month = String(1 + (Math.floor(index / 28) % 12)).padStart(2, '0');
      const second = String(index % 60).padStart(2, '0');
      const answer = await fetch(
        `${harness.proxy.url}/api/polls?openAt[from]=2024-${month}-${day}T00:${String(Math.floor(index / 336) % 60).padStart(2, '0')}:${second}Z`,
        { headers: { Origin: 'http://127.0.0.1:4999', 'X-Forwarded-For': `198.51.100.${index % 250}` } },
      );
      await answer.body?.cancel();
      if (answer.status !== 200) refused += 1;
    }
    const duringFlood = harness.upstream.slice(before).filter((call) => call.method === 'GET').length;
    const floodSeconds = (Date.now() + shift - floodStartedAt) / 1000;
    const me = await fetch(`${harness.proxy.url}/api/user/me`, { headers: fan });
    await me.body?.cancel();

    // A slow platform: the cached poll's freshness is over, the platform takes 30 s; 20 readers one after another.
    await harness.call('/api/polls?limit=6');
    shift += 60_000;
    faults.setLatency(30_000);
    const waits: number[] = [];
    for (let reader = 0; reader < 20; reader += 1) {
      const started = performance.now();
      const answer = await fetch(`${harness.proxy.url}/api/polls?limit=6`, {
        headers: { Origin: 'http://127.0.0.1:4999' },
      });
      await answer.body?.cancel();
      waits.push(performance.now() - started);
    }
    faults.clear();
    const sorted = [...waits].sort((a, b) => a - b);
    console.log(
      `platform requests during a 60 s outage (a reader and a fan every 100 ms): ${duringOutage} in the minute`,
    );
    console.log(
      `platform reads under a cache-busting flood (2,000 distinct anonymous queries from 250 addresses over ${Math.round(floodSeconds)} s of the proxy's time): ${duringFlood} = ${Math.round(duringFlood / (floodSeconds / 60))} a minute (budget ${harness.proxy.config.publicReadsPerMinute} a minute, fixed windows), ${refused} refused; a fan's read afterwards: ${me.status}`,
    );
    console.log(
      `cached poll with the platform at 30 s latency, 20 readers: first ${Math.round(waits[0] ?? 0)} ms, median ${Math.round(sorted[10] ?? 0)} ms, max ${Math.round(sorted[19] ?? 0)} ms`,
    );
    await recordBenchResults('proxy', [
      {
        id: 'outage-platform-requests',
        what: '60 s platform outage: platform requests',
        value: duringOutage,
        unit: '',
        target: { comparison: '<=', value: 28 },
      },
      {
        id: 'flood-platform-reads',
        what: 'cache-busting flood: platform reads a minute',
        value: Math.round(duringFlood / (floodSeconds / 60)),
        unit: '',
        detail: `the budget is ${String(harness.proxy.config.publicReadsPerMinute)} a fixed one-minute window; ${refused.toLocaleString('en')} refused`,
      },
      {
        id: 'slow-platform-first-reader',
        what: 'cached poll, platform answering in 30 s: the first reader waits',
        value: Math.round(waits[0] ?? 0),
        unit: 'ms',
        detail: `stale-on-slow answers at 1.5 s; then a median of ${String(Math.round(sorted[10] ?? 0))} ms`,
      },
    ]);
  } finally {
    await harness.close();
  }
}
