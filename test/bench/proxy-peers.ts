// The side-by-side run of the cached read: every server in a process of its own (autocannon stays in the bench's
// process), per server CPU-second, in alternating rounds; then p50/p99 at 50% and 90% of each one's maximum rate. The
// cached poll read against nginx (a caching reverse proxy in front of the sandbox), nginx with the shipped recipe in
// front of the proxy, bare Hono answering the proxy's body (and the body with the proxy's headers), the proxy in
// memory, with Redis, with Redis and its access log off, and the previous build (`PROXY_BENCH_PREVIOUS`: a checkout
// of it with this node_modules) with Redis. Then a signed-in fan's read of a poll with the fan's own vote, and a
// vote, on the proxy in memory, with Redis and the previous build with Redis.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { csrfHeaderName, csrfHeaderValue, proxyRoutes } from '../../src/contracts/proxy-contract.ts';
import { recordBenchResults } from '../../src/dev/bench-results.ts';
import { demoApplication } from '../../src/local-defaults.ts';
import { defaultApiVersions } from '../../src/platform/config.ts';
import type { Poll } from '../../src/platform/types.ts';
import { demoRegisteredApplication } from '../../src/sandbox/applications.ts';
import { serveSandbox, type RunningSandbox } from '../../src/sandbox/serve.ts';
import { callAt, signIn } from '../integration/proxy-harness.ts';
import { openRiversidePoll } from '../support/open-poll.ts';
import type { TestRedis } from '../support/redis-server.ts';
import { alternatingRounds, latencyRows, median, type Load, type RoundSettings } from './load-rounds.ts';
import { startNginxInFront } from '../support/nginx-in-front.ts';
import { startNginx, startNodeServer, treeCpuSeconds, type PeerServer } from './peer-servers.ts';

const nginxInFrontName = 'nginx in front of the proxy (Redis)';

const pageOrigin = 'http://127.0.0.1:4999';
const root = fileURLToPath(new URL('../..', import.meta.url));

/** The peers, then the fan's routes, on servers started once against one sandbox. */
export async function peers(redis: TestRedis, settings: RoundSettings): Promise<void> {
  const sandbox = await serveSandbox({ apiPort: 0, authPort: 0 });
  sandbox.sandbox.state.throttle.requestsPerMinute = 0;
  const servers: PeerServer[] = [];
  const bodyFolder = mkdtempSync(join(tmpdir(), 'fan-polls-bench-'));
  try {
    const token = await applicationToken(sandbox);
    const apiPrefix = `/polls/${defaultApiVersions.polls}`;
    const polls = (await (
      await fetch(`${sandbox.apiUrl}${apiPrefix}/polls?limit=50`, {
        headers: { Authorization: `Bearer ${token}` },
      })
    ).json()) as { data: Poll[] };
    const pollPath = `/api/polls/${polls.data[0]?.id ?? ''}`;
    const headers = { Origin: pageOrigin };
    // The sandbox preset (plain http to the sandbox), which NODE_ENV=production refuses.
    const proxyEnv = {
      NODE_ENV: 'development',
      FAN_POLLS_PRESET: 'sandbox',
      FAN_POLLS_PLATFORM_API_URL: sandbox.apiUrl,
      FAN_POLLS_PLATFORM_AUTH_URL: sandbox.authUrl,
      FAN_POLLS_ALLOWED_ORIGINS: pageOrigin,
    };
    const proxyAt = (name: string, cwd: string, env: Record<string, string>) =>
      startNodeServer({
        name,
        cwd,
        entry: 'src/proxy/main.ts',
        env,
        probePath: pollPath,
        probeHeaders: headers,
      });
    const redisEnv = { ...proxyEnv, FAN_POLLS_REDIS_URL: redis.url };
    const nginx = await startNginx({ apiUrl: sandbox.apiUrl, apiPrefix, token, probePath: pollPath });
    servers.push(nginx);
    const memory = await proxyAt('proxy, in memory', root, proxyEnv);
    const withRedis = await proxyAt('proxy, Redis', root, redisEnv);
    servers.push(memory, withRedis);
    // What the access log costs now (the option the issue names).
    servers.push(
      await proxyAt('proxy, Redis, access log off', root, { ...redisEnv, FAN_POLLS_LOG_LEVEL: 'warn' }),
    );
    // The shipped recipe (examples/nginx/) in front of the proxy with Redis: nginx's CPU and the proxy's together.
    const front = await startNginxInFront([withRedis.url]);
    servers.push({
      name: nginxInFrontName,
      url: front.url,
      cpuSeconds: () => treeCpuSeconds(front.pid) + withRedis.cpuSeconds(),
      stop: () => front.stop(),
    });
    const proxyBody = await (await fetch(`${withRedis.url}${pollPath}`, { headers })).text();
    const bodyFile = join(bodyFolder, 'body.json');
    writeFileSync(bodyFile, proxyBody);
    const bare = await startNodeServer({
      name: 'bare Hono, same bytes',
      cwd: root,
      entry: 'test/bench/bare-hono-server.ts',
      env: { BARE_BODY_FILE: bodyFile },
      probePath: pollPath,
    });
    // The proxy's own headers on bare Hono (less those Node adds itself): the headers' share of the gap.
    const proxyAnswer = await fetch(`${withRedis.url}${pollPath}`, { headers });
    await proxyAnswer.text();
    const headersFile = join(bodyFolder, 'headers.json');
    const nodeAdds = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);
    writeFileSync(
      headersFile,
      JSON.stringify(Object.fromEntries([...proxyAnswer.headers].filter(([name]) => !nodeAdds.has(name)))),
    );
    const bareWithHeaders = await startNodeServer({
      name: 'bare Hono, same bytes and headers',
      cwd: root,
      entry: 'test/bench/bare-hono-server.ts',
      env: { BARE_BODY_FILE: bodyFile, BARE_HEADERS_FILE: headersFile },
      probePath: pollPath,
    });
    servers.splice(1, 0, bare, bareWithHeaders);
    const previousCheckout = process.env.PROXY_BENCH_PREVIOUS;
    const previous =
      previousCheckout === undefined || previousCheckout === ''
        ? undefined
        : await proxyAt('previous build, Redis', previousCheckout, redisEnv);
    if (previous !== undefined) servers.push(previous);
    const nginxBody = await (await fetch(`${nginx.url}${pollPath}`)).text();

    const cachedReads = servers.map((server): Load => ({
      name: server.name,
      server,
      path: pollPath,
      headers,
    }));
    // PROXY_BENCH_ONLY=fan: the fan's routes alone, in PROXY_BENCH_FAN_ROUNDS rounds (default: as many as the rest).
    if (process.env.PROXY_BENCH_ONLY !== 'fan') {
      await reportCachedReads(cachedReads, settings, {
        bodies: `proxy and bare Hono ${String(proxyBody.length)} bytes, nginx (the platform's own JSON) ${String(nginxBody.length)} bytes`,
      });
    }
    const fanServers = [memory, withRedis, ...(previous === undefined ? [] : [previous])];
    const fanRounds = Number(process.env.PROXY_BENCH_FAN_ROUNDS ?? settings.roundCount);
    await reportFanRoutes(sandbox, fanServers, openRiversidePoll(polls.data), {
      ...settings,
      roundCount: fanRounds,
    });
  } finally {
    for (const server of servers) await server.stop();
    rmSync(bodyFolder, { recursive: true, force: true });
    await sandbox.close();
  }
}

async function applicationToken(sandbox: RunningSandbox): Promise<string> {
  const tokenAnswer = await fetch(`${sandbox.authUrl}/oauth2/token`, {
    method: 'POST',
    headers: {
      Authorization: `Basic ${btoa(`${demoApplication.clientId}:${demoApplication.clientSecret}`)}`,
      'Content-Type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials',
  });
  return ((await tokenAnswer.json()) as { access_token: string }).access_token;
}

function machineLine(settings: RoundSettings): string {
  const [loadOne, loadFive] = loadavg();
  return `${String(settings.connections)} connections, ${String(settings.roundCount)} alternating rounds of ${String(settings.durationSeconds)} s after a ${String(settings.warmUpSeconds)} s warm-up; machine load ${loadOne?.toFixed(2) ?? '?'} (1 min), ${loadFive?.toFixed(2) ?? '?'} (5 min) at the end, ${String(cpus().length)} cores`;
}

async function reportCachedReads(
  loads: readonly Load[],
  settings: RoundSettings,
  notes: { bodies: string },
): Promise<void> {
  const rounds = await alternatingRounds(loads, settings);
  // Every server also at the proxy's own 50%: whether a tail is the proxy's or the machine's at that load.
  const proxyHalf = Math.round(median(rounds.get('proxy, Redis')?.rps ?? [0]) * 0.5);
  const latencies = await latencyRows(loads, rounds, settings, {
    rate: proxyHalf,
    label: `${String(proxyHalf)}/s (the proxy with Redis at 50%)`,
  });
  console.log(
    `Cached poll read, each server in its own process; ${machineLine(settings)}. Bodies: ${notes.bodies}.`,
  );
  const perCpuOf = (name: string) => median(rounds.get(name)?.perCpu ?? [0]);
  const redisPerCpu = perCpuOf('proxy, Redis');
  console.log(
    '| server | requests/s (median) | server CPU share | requests per server CPU-second (median) | x the proxy with Redis | per-round per CPU-s |',
  );
  console.log('| --- | --- | --- | --- | --- | --- |');
  for (const load of loads) {
    const figures = rounds.get(load.name);
    if (figures === undefined) continue;
    const perCpu = median(figures.perCpu);
    console.log(
      `| ${load.name} | ${String(Math.round(median(figures.rps)))} | ${median(figures.cpuShare).toFixed(2)} | ${String(Math.round(perCpu))} | ${(perCpu / redisPerCpu).toFixed(2)} | ${figures.perCpu.map((value) => String(Math.round(value))).join(', ')} |`,
    );
  }
  console.log(
    `proxy with Redis per CPU-second: ${(redisPerCpu / perCpuOf('bare Hono, same bytes')).toFixed(2)}x bare Hono, ${(redisPerCpu / perCpuOf('bare Hono, same bytes and headers')).toFixed(2)}x bare Hono with the proxy's headers (target >= 0.9), ${(redisPerCpu / perCpuOf('nginx')).toFixed(2)}x nginx`,
  );
  console.log(
    `${nginxInFrontName} per CPU-second (nginx's and the proxy's together): ${(perCpuOf(nginxInFrontName) / perCpuOf('nginx')).toFixed(2)}x nginx alone (target >= 0.8)`,
  );
  printLatencies(latencies);
  const nginxInFront = perCpuOf(nginxInFrontName);
  await recordBenchResults('proxy', [
    {
      id: 'redis-over-bare-hono-with-headers',
      what: "cached read, proxy with Redis over bare Hono sending the proxy's headers, per server CPU-second",
      value: Number((redisPerCpu / perCpuOf('bare Hono, same bytes and headers')).toFixed(2)),
      unit: 'x',
      detail: `${(redisPerCpu / perCpuOf('bare Hono, same bytes')).toFixed(2)}x over bare Hono with fewer headers`,
      target: { comparison: '>=', value: 0.9 },
    },
    {
      id: 'redis-over-nginx',
      what: 'cached read, proxy with Redis over nginx `proxy_cache`, per server CPU-second',
      value: Number((redisPerCpu / perCpuOf('nginx')).toFixed(2)),
      unit: 'x',
      detail: 'a cache goes in front: the next figure',
    },
    {
      id: 'nginx-in-front-over-nginx',
      what: 'nginx with the shipped recipe in front of the proxy (Redis) over nginx alone, per CPU-second of both',
      value: Number((nginxInFront / perCpuOf('nginx')).toFixed(2)),
      unit: 'x',
      detail: `${Math.round(nginxInFront).toLocaleString('en')} against ${Math.round(perCpuOf('nginx')).toLocaleString('en')} reads per CPU-second`,
      target: { comparison: '>=', value: 0.8 },
    },
    ...redisHalfRateP99(latencies),
  ]);
}

/** The p99 of the proxy with Redis at half its own maximum rate, from its printed latency row. */
function redisHalfRateP99(rows: readonly string[]) {
  const cells = rows
    .map((row) => row.split('|').map((each) => each.trim()))
    .find((row) => row[1] === 'proxy, Redis' && row[2]?.startsWith('50%') === true);
  const p99 = Number(cells?.[5]);
  if (cells === undefined || !Number.isFinite(p99)) return [];
  return [
    {
      id: 'cached-read-p99-half-rate',
      what: "cached read p99 at half the proxy's maximum rate, warm process",
      value: p99,
      unit: 'ms',
      detail: `p50 ${cells[4] ?? '?'} ms`,
      target: { comparison: '<=', value: 5 },
    } as const,
  ];
}

/** The short commit of the previous build's checkout, or `the previous build` when it has none. */
function previousBuildName(): string {
  try {
    const checkout = process.env.PROXY_BENCH_PREVIOUS ?? '';
    return execFileSync('git', ['-C', checkout, 'rev-parse', '--short=7', 'HEAD'], {
      encoding: 'utf8',
    }).trim();
  } catch {
    return 'the previous build';
  }
}

function printLatencies(rows: readonly string[]): void {
  console.log(
    '| load | sent evenly at | answered/s | p50 ms | p99 ms | max ms | generator loop delay p99 ms | statuses |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const row of rows) console.log(row);
}

/**
 * A signed-in fan (sam) on each proxy: the fan's read of an open poll with the fan's own vote, and a vote in it. The
 * first vote counts; every later one is the platform's 409 `already_voted`, answered through the same route (session,
 * CSRF, body, the platform's vote call, the refusal's mapping), which is what a repeated vote costs the proxy.
 */
async function reportFanRoutes(
  sandbox: RunningSandbox,
  servers: readonly PeerServer[],
  poll: Poll,
  settings: RoundSettings,
): Promise<void> {
  sandbox.sandbox.state.applications.register(
    demoRegisteredApplication(servers.map((server) => `${server.url}/auth/callback`)),
  );
  const loads: Load[] = [];
  for (const server of servers) {
    const { cookie } = await signIn({ call: callAt(server.url, []) }, { username: 'sam' });
    const fan = { Origin: pageOrigin, Cookie: cookie ?? '', [csrfHeaderName]: csrfHeaderValue };
    loads.push({
      name: `${server.name}: fan read`,
      server,
      path: proxyRoutes.userPoll(poll.id),
      headers: fan,
    });
    loads.push({
      name: `${server.name}: vote`,
      server,
      path: proxyRoutes.vote(poll.id),
      method: 'POST',
      headers: { ...fan, 'Content-Type': 'application/json' },
      body: JSON.stringify({ answerId: poll.answers[0]?.id ?? '' }),
    });
  }
  const rounds = await alternatingRounds(loads, settings);
  const latencies = await latencyRows(loads, rounds, settings);
  console.log(`A signed-in fan's routes (poll ${poll.id}); ${machineLine(settings)}.`);
  console.log(
    '| load | requests/s (median) | server CPU share | requests per server CPU-second (median) | server CPU µs per request | x the previous build’s CPU per request | statuses |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- |');
  const previousName = servers.length > 2 ? servers[servers.length - 1]?.name : undefined;
  for (const load of loads) {
    const figures = rounds.get(load.name);
    if (figures === undefined) continue;
    const perCpu = median(figures.perCpu);
    const route = load.name.slice(load.server.name.length);
    const previousPerCpu = median(rounds.get(`${previousName ?? ''}${route}`)?.perCpu ?? [Number.NaN]);
    console.log(
      `| ${load.name} | ${String(Math.round(median(figures.rps)))} | ${median(figures.cpuShare).toFixed(2)} | ${String(Math.round(perCpu))} | ${String(Math.round(1_000_000 / perCpu))} | ${(previousPerCpu / perCpu).toFixed(2)} | ${[...figures.statuses].join(', ')} |`,
    );
  }
  const thisBuild = rounds.get(`${servers[1]?.name ?? ''}: fan read`)?.perCpu ?? [];
  const before = previousName === undefined ? [] : (rounds.get(`${previousName}: fan read`)?.perCpu ?? []);
  if (before.length > 0) {
    // CPU per request, this build with Redis over the previous build, round by round (each pair ran in one round).
    const ratios = thisBuild.map((perCpu, round) => (before[round] ?? Number.NaN) / perCpu);
    console.log(
      `fan read with Redis, CPU per request x the previous build's, per round: ${ratios.map((ratio) => ratio.toFixed(2)).join(', ')}; median ${median(ratios).toFixed(2)} (target <= 0.5)`,
    );
    await recordBenchResults('proxy', [
      {
        id: 'fan-read-cpu-over-previous',
        what: `signed-in fan's read, server CPU per request, over ${previousBuildName()}'s`,
        value: Number(median(ratios).toFixed(2)),
        unit: 'x',
        detail: `rounds ${ratios.map((ratio) => ratio.toFixed(2)).join(', ')}`,
        target: { comparison: '<=', value: 0.5 },
      },
    ]);
  }
  printLatencies(latencies);
}
