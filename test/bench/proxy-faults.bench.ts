// The proxy through an operator's bad day, in real time over real sockets: two proxy instances on one
// Debian redis-server (append-only file on) reached through a TCP forwarder that counts every Redis command the
// proxies send, in front of the sandbox; four signed-in fans and four anonymous readers keep reading, and a balancer
// probes `/readyz`. Each fault lasts PROXY_FAULTS_SECONDS (default 15): healthy (the baseline), Redis stopped,
// paused (SIGSTOP), answering 3 s late, behind a blackholed link, the platform's token endpoint refusing connections
// while every token expires, and the platform answering malformed bodies. For each: platform and Redis requests per
// minute, the fans' answers with p50/p99, the readers' answers, `/readyz`, and how long after the heal every fan and
// reader was served again. Runs with `npm run bench -- proxy` and alone with `npm run bench -- proxy-faults`
// (PROXY_FAULTS_ONLY=redis-paused,... picks faults by name).
import { recordBenchResults, type Figure } from '../../src/dev/bench-results.ts';
import { silentLogger } from '../../src/proxy/logger.ts';
import { sandboxChoices } from '../../src/sandbox/choices.ts';
import type { Poll } from '../../src/platform/types.ts';
import { pageOrigin, signIn, startHarness, type Harness } from '../integration/proxy-harness.ts';
import { startRedis, type TestRedis } from '../support/redis-server.ts';
import { respCommandCounter } from '../support/resp-command-counter.ts';
import { forwardTcp, type TcpForwarder } from '../support/tcp-forwarder.ts';
import {
  driveLoad,
  fanHeaders,
  latencyQuantile,
  statusCounts,
  timedStatus,
  type LoadFan,
  type LoadReader,
} from './fault-load.ts';

const phaseSeconds = Number(process.env.PROXY_FAULTS_SECONDS ?? 15);
const tokenLifetimeMs = sandboxChoices.lifetimes.accessTokenSeconds * 1000;
const fanNames = ['sam', 'alex', 'jo', 'kim'];
/** The longest wait for everyone to be served again after a heal, before the bench calls it not recovered. */
const recoveryLimitMs = 30_000;

interface Rig {
  readonly redis: TestRedis;
  readonly link: TcpForwarder;
  readonly instances: readonly Harness[];
  readonly redisTraffic: { connections: number; commands: number };
  /** Moves every instance's clock (token lifetimes, breakers); Redis deadlines keep real time. */
  advanceClock(ms: number): void;
  /** Real time since the fans signed in (every token was issued since). */
  elapsedMs(): number;
}

interface Fault {
  readonly name: string;
  readonly label: string;
  /** Before the fault, with the platform up; the readers' polls are read again afterwards. */
  prepare?(rig: Rig): void;
  start(rig: Rig): void | Promise<void>;
  heal(rig: Rig): void | Promise<void>;
}

const tokenRefused = (request: Request) =>
  new URL(request.url).pathname.endsWith('/oauth2/token')
    ? Promise.reject(
        new TypeError('fetch failed', {
          cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
        }),
      )
    : Promise.resolve();

const faults: readonly Fault[] = [
  { name: 'healthy', label: 'healthy (baseline)', start: () => undefined, heal: () => undefined },
  {
    name: 'redis-stopped',
    label: 'Redis stopped',
    start: ({ redis }) => redis.stop(),
    heal: ({ redis }) => redis.start(),
  },
  {
    name: 'redis-paused',
    label: 'Redis paused (SIGSTOP)',
    start: ({ redis }) => {
      redis.signal('SIGSTOP');
    },
    heal: ({ redis }) => {
      redis.signal('SIGCONT');
    },
  },
  {
    name: 'redis-slow',
    label: 'Redis answering 3 s late',
    start: ({ link }) => {
      link.slow(3000);
    },
    heal: ({ link }) => {
      link.flow();
    },
  },
  {
    name: 'redis-blackholed',
    label: 'Redis link blackholed',
    start: ({ link }) => {
      link.hold();
    },
    heal: ({ link }) => {
      link.flow();
    },
  },
  {
    name: 'token-down',
    label: 'token endpoint down, every token expired',
    // On the proxies' clock: every token (the fans' and the application's) two minutes or more short of its expiry,
    // outside the refresh margin, and the readers' polls read then; at the fault, past every expiry, with those polls
    // still within their stale-if-error time (as long as the bench so far took under 7 minutes).
    prepare: (rig) => {
      rig.advanceClock(tokenLifetimeMs - 2 * 60_000 - rig.elapsedMs());
    },
    start: (rig) => {
      rig.advanceClock(3 * 60_000 + rig.elapsedMs());
      for (const instance of rig.instances) instance.beforeUpstream = tokenRefused;
    },
    heal: ({ instances }) => {
      for (const instance of instances) instance.beforeUpstream = undefined;
    },
  },
  {
    name: 'platform-garbage',
    label: 'platform answering malformed bodies',
    start: ({ instances }) => {
      instances[0]?.sandbox.sandbox.state.faults.malformNext(1_000_000);
    },
    heal: ({ instances }) => {
      instances[0]?.sandbox.sandbox.state.faults.clear();
    },
  },
];

export default async function proxyFaultsBench(): Promise<void> {
  const only = process.env.PROXY_FAULTS_ONLY?.split(',');
  const chosen = faults.filter((fault) => only === undefined || only.includes(fault.name));
  const rig = await startRig();
  try {
    const fans = await signInFans(rig.instances);
    const readers = await readersOf(rig.instances);
    console.log(
      `Two proxy instances on one redis-server (through a counting TCP forwarder), the sandbox, ${String(fans.length)} signed-in fans (a fan route every 250 ms each), ${String(readers.length)} readers (a public read every 100 ms each), /readyz probed every second; ${String(phaseSeconds)} s of each fault, counts given per minute.`,
    );
    console.log(
      '| fault | platform requests/min (token) | Redis commands/min | Redis connections/min | fans’ answers | fan p50 ms | fan p99 ms | readers’ answers | /readyz | everyone served again after the heal |',
    );
    console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
    const measured = new Map<string, Measured>();
    for (const fault of chosen) {
      const result = await measureFault(rig, fault, fans, readers);
      console.log(result.row);
      measured.set(fault.name, result);
    }
    await recordBenchResults('proxy-faults', figuresOf(measured));
  } finally {
    for (const instance of [...rig.instances].reverse()) await instance.close();
    await rig.link.close();
    await rig.redis.close();
  }
}

async function startRig(): Promise<Rig> {
  const redis = await startRedis();
  const redisTraffic = { connections: 0, commands: 0 };
  const link = await forwardTcp(redis.port, {
    watchClient: () => {
      redisTraffic.connections += 1;
      const count = respCommandCounter();
      return (chunk) => {
        redisTraffic.commands += count(chunk);
      };
    },
  });
  let shift = 0;
  const first = await startHarness(
    {
      redisUrl: `redis://127.0.0.1:${String(link.port)}`,
      signInPerMinute: 100,
      clientAddressHeader: 'X-Forwarded-For',
    },
    { logger: silentLogger, now: () => Date.now() + shift },
  );
  // The fans' reads reach the platform every time: the sandbox's own quota would answer 429 within the minute.
  first.sandbox.sandbox.state.throttle.requestsPerMinute = 0;
  const second = await first.addInstance();
  const startedAt = performance.now();
  return {
    redis,
    link,
    instances: [first, second],
    redisTraffic,
    advanceClock: (ms) => {
      shift += ms;
    },
    elapsedMs: () => performance.now() - startedAt,
  };
}

/** Each fan signed in on one instance, their requests alternating between the two (the session is in Redis). */
async function signInFans(instances: readonly Harness[]): Promise<LoadFan[]> {
  const fans: LoadFan[] = [];
  for (const [index, username] of fanNames.entries()) {
    const instance = instances[index % instances.length]!;
    const { cookie } = await signIn(instance, { username });
    if (cookie === undefined) throw new Error(`${username} got no session cookie.`);
    fans.push({ proxyUrl: instance.proxy.url, cookie });
  }
  return fans;
}

/** Four readers, two per instance: the first page of polls and two polls of their own. */
async function readersOf(instances: readonly Harness[]): Promise<LoadReader[]> {
  const list = (await (await instances[0]!.call('/api/polls?limit=20')).json()) as { data: Poll[] };
  const ids = list.data.map((poll) => poll.id);
  return [0, 1, 2, 3].map((index) => ({
    proxyUrl: instances[index % instances.length]!.proxy.url,
    address: `198.51.100.${String(index + 1)}`,
    paths: ['/api/polls?limit=5', `/api/polls/${ids[index] ?? ''}`, `/api/polls/${ids[index + 4] ?? ''}`],
  }));
}

interface Measured {
  /** The fault's row of the printed table. */
  readonly row: string;
  readonly tokenCalls: number;
  /** Until everyone is served again after the heal; undefined past the limit. */
  readonly recoveredMs: number | undefined;
}

const recoverySeconds = (measured: Measured | undefined): number | undefined =>
  measured === undefined ? undefined : (measured.recoveredMs ?? recoveryLimitMs) / 1000;

/** The figures of record of the faults that ran. */
function figuresOf(measured: ReadonlyMap<string, Measured>): Figure[] {
  const redisFaults = faults.filter(({ name }) => name.startsWith('redis-') && measured.has(name));
  const redis = redisFaults.flatMap(({ name }) => recoverySeconds(measured.get(name)) ?? []);
  const redisWhat =
    redisFaults.length === 4
      ? 'Redis stopped, paused, 3 s late or blackholed'
      : redisFaults.map(({ label }) => label).join(', ');
  const tokenDown = measured.get('token-down');
  const tokenRecovery = recoverySeconds(tokenDown);
  const garbageRecovery = recoverySeconds(measured.get('platform-garbage'));
  const seconds = (value: number) => Number(value.toFixed(1));
  return [
    ...(redis.length === 0
      ? []
      : [
          {
            id: 'redis-faults-recovery',
            what: `${redisWhat}: everyone served again after the heal, the slowest`,
            value: seconds(Math.max(...redis)),
            unit: 's',
            detail: `${seconds(Math.min(...redis)).toFixed(1)} s the fastest`,
            target: { comparison: '<=', value: 15 },
          } as const,
        ]),
    ...(tokenDown === undefined || tokenRecovery === undefined
      ? []
      : [
          {
            id: 'token-endpoint-down-requests',
            what: `token endpoint down as every token expires: token requests in ${String(phaseSeconds)} s, two instances`,
            value: tokenDown.tokenCalls,
            unit: '',
            detail: '10 in 20 s an instance',
            target: { comparison: '<=', value: 20 * Math.ceil(phaseSeconds / 20) },
          } as const,
          {
            id: 'token-endpoint-down-recovery',
            what: 'token endpoint down: everyone served again after the heal',
            value: seconds(tokenRecovery),
            unit: 's',
            target: { comparison: '<=', value: 10 },
          } as const,
        ]),
    ...(garbageRecovery === undefined
      ? []
      : [
          {
            id: 'malformed-bodies-recovery',
            what: 'platform answering malformed bodies: everyone served again after the heal',
            value: seconds(garbageRecovery),
            unit: 's',
            target: { comparison: '<=', value: 10 },
          } as const,
        ]),
  ];
}

/** One fault: load during it, the counters' difference, then the heal and the wait until everyone is served. */
async function measureFault(
  rig: Rig,
  fault: Fault,
  fans: readonly LoadFan[],
  readers: readonly LoadReader[],
): Promise<Measured> {
  if (fault.prepare !== undefined) {
    fault.prepare(rig);
    await untilEveryoneServed(fans, readers);
  }
  const upstream = rig.instances[0]!.upstream;
  const platformBefore = upstream.length;
  const redisBefore = { ...rig.redisTraffic };
  await fault.start(rig);
  const startedAt = performance.now();
  const samples = await driveLoad({
    seconds: phaseSeconds,
    pageOrigin,
    fans,
    readers,
    probed: rig.instances.map((instance) => instance.proxy.url),
  });
  const minutes = (performance.now() - startedAt) / 60_000;
  const platform = upstream.slice(platformBefore);
  const tokenCalls = platform.filter((call) => call.url.pathname.endsWith('/oauth2/token')).length;
  const redisCommands = rig.redisTraffic.commands - redisBefore.commands;
  const redisConnections = rig.redisTraffic.connections - redisBefore.connections;
  await fault.heal(rig);
  const recoveredMs = await untilEveryoneServed(fans, readers);
  const fanSamples = samples.filter(({ who }) => who === 'fan');
  const perMinute = (count: number) => Math.round(count / minutes).toLocaleString('en');
  const row = [
    fault.label,
    `${perMinute(platform.length)} (${perMinute(tokenCalls)})`,
    perMinute(redisCommands),
    perMinute(redisConnections),
    statusCounts(fanSamples),
    String(latencyQuantile(fanSamples, 0.5)),
    String(latencyQuantile(fanSamples, 0.99)),
    statusCounts(samples.filter(({ who }) => who === 'reader')),
    statusCounts(samples.filter(({ who }) => who === 'probe')),
    recoveredMs === undefined
      ? `not within ${String(recoveryLimitMs / 1000)} s`
      : `${(recoveredMs / 1000).toFixed(1)} s`,
  ]
    .join(' | ')
    .replace(/^/, '| ')
    .concat(' |');
  return { row, tokenCalls, recoveredMs };
}

/**
 * How long until every fan's `/api/user/me` and every reader's paths answer 200 again (asked every 100 ms), or
 * undefined past the limit. Readers are asked too so that the next fault starts with their polls cached again.
 */
async function untilEveryoneServed(
  fans: readonly LoadFan[],
  readers: readonly LoadReader[],
): Promise<number | undefined> {
  const healedAt = performance.now();
  const requests = [
    ...fans.map((fan) => [`${fan.proxyUrl}/api/user/me`, fanHeaders(fan, pageOrigin)] as const),
    ...readers.flatMap((reader) =>
      reader.paths.map(
        (path) =>
          [`${reader.proxyUrl}${path}`, { Origin: pageOrigin, 'X-Forwarded-For': reader.address }] as const,
      ),
    ),
  ];
  while (performance.now() - healedAt < recoveryLimitMs) {
    const answers = await Promise.all(requests.map(([url, headers]) => timedStatus(url, headers)));
    if (answers.every(({ status }) => status === 200)) return performance.now() - healedAt;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return undefined;
}
