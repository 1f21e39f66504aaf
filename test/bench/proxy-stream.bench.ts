// The live poll stream at scale (`npm run bench -- proxy-stream`): thousands of pages holding `/api/polls/stream` of
// one poll on one proxy instance in memory, then on two instances sharing Redis; a change at the platform each round,
// fanned out to every stream. Measured: resident memory per idle stream, the time from the platform's answer to the
// proxy's refresh read to each stream's event (p50, p95, p99, the last stream), and the proxies' CPU per 1,000 events
// delivered; then the same on the edge build on workerd (every stream in one Durable Object). In the same run, on the
// same Node instance: the CPU of the cached poll read that the stream replaces, and what 10,000 pages cost a minute
// either way.
import { recordBenchResults, type Figure } from '../../src/dev/bench-results.ts';
import { createSandbox, type Sandbox } from '../../src/sandbox/sandbox.ts';
import { closeServer, listenOnLoopback } from '../../src/node/loopback-server.ts';
import { pollStreamPath } from '../../src/contracts/poll-stream-contract.ts';
import { openPollIdsFromProxy } from '../support/open-poll.ts';
import { startRedis } from '../support/redis-server.ts';
import { measureLoad } from './load-rounds.ts';
import { buildEdgeBundle, startWorkerd } from '../support/workerd.ts';
import { residentBytes, startNodeServer, treeCpuSeconds, type PeerServer } from './peer-servers.ts';
import { monotonicMs, startStreamClients } from './stream-clients.ts';
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';

const streamCount = Number(process.env.STREAM_BENCH_STREAMS ?? 10_000);
const roundCount = Number(process.env.STREAM_BENCH_ROUNDS ?? 6);
/** Reads a second of the polling comparison (autocannon, 50 connections): what this machine sustains beside the rest. */
const pollingRate = Number(process.env.STREAM_BENCH_POLLING_RATE ?? 2000);
const pollingSeconds = 10;
/** How often a reader asks the first instance for the cached poll read during the rounds. */
const readProbeEveryMs = 20;
/** Streams being opened at once. */
const openConcurrency = 100;
const windowSeconds = 5;
/** Every stream open and no change: the streams' own cost, taken from the rounds' CPU to give the events' cost. */
const idleSeconds = 2 * windowSeconds;
/** The page of the measured polling: three cards and a banner read the proxy 74 times a minute; streamed, two streams. */
const pollingReadsPerPageMinute = 74;
const streamsPerPage = 2;
const pagesCompared = 10_000;
const pageOrigin = 'http://127.0.0.1:4999';
const root = fileURLToPath(new URL('../..', import.meta.url));

/** The sandbox on loopback, noting when it answered each poll read (the proxy's refreshes). */
interface TimedSandbox {
  readonly sandbox: Sandbox;
  readonly apiUrl: string;
  readonly authUrl: string;
  /** Times (`monotonicMs`) the resource API answered a read of one poll, by the poll's id in lower case. */
  answeredAt(pollId: string): readonly number[];
  close(): Promise<void>;
}

async function timedSandbox(): Promise<TimedSandbox> {
  const sandbox = createSandbox({ requestsPerMinute: 0 });
  const answers = new Map<string, number[]>();
  const api = await listenOnLoopback(async (request, env) => {
    const response = await sandbox.api.fetch(request, env);
    const pollId = /\/poll\/([0-9a-f-]{36})/i.exec(new URL(request.url).pathname)?.[1]?.toLowerCase();
    if (pollId !== undefined) answers.set(pollId, [...(answers.get(pollId) ?? []), monotonicMs()]);
    return response;
  }, 0);
  const auth = await listenOnLoopback(sandbox.auth.fetch, 0);
  return {
    sandbox,
    apiUrl: api.url,
    authUrl: auth.url,
    answeredAt: (pollId) => answers.get(pollId) ?? [],
    close: async () => {
      await Promise.all([closeServer(api.server), closeServer(auth.server)]);
    },
  };
}

type Instance = PeerServer & { readonly pid: number };

interface RoundFigures {
  readonly p50: number;
  readonly p95: number;
  readonly p99: number;
  readonly last: number;
  readonly delivered: number;
}

/** Which setup a case ran: one Node instance in memory, two on Redis, the edge build. */
type CaseKind = 'memory' | 'redis' | 'edge';

interface CaseFigures {
  readonly kind: CaseKind;
  readonly name: string;
  readonly open: number;
  readonly refused: number;
  readonly residentPerStream: number;
  /** The proxies' CPU-seconds a second with every stream open and no change (refreshes, keep-alives, timers). */
  readonly idleCpuPerSecond: number;
  readonly rounds: readonly RoundFigures[];
  /** The proxies' CPU-seconds over the rounds, and the rounds' length in seconds. */
  readonly cpuSeconds: number;
  readonly seconds: number;
  /** Times (ms) of the cached poll reads a reader sent every `readProbeEveryMs` meanwhile: what a fan-out holds up. */
  readonly readTimes: readonly number[];
}

export default async function streamBench(): Promise<void> {
  const platform = await timedSandbox();
  const redis = await startRedis();
  const env = {
    NODE_ENV: 'development',
    FAN_POLLS_PRESET: 'sandbox',
    FAN_POLLS_PLATFORM_API_URL: platform.apiUrl,
    FAN_POLLS_PLATFORM_AUTH_URL: platform.authUrl,
    FAN_POLLS_ALLOWED_ORIGINS: pageOrigin,
    FAN_POLLS_POLL_CACHE_SECONDS: String(windowSeconds),
    FAN_POLLS_STREAMS_PER_INSTANCE: String(streamCount),
    FAN_POLLS_STREAMS_PER_CLIENT: String(streamCount),
  };
  const instance = (name: string, extra: Record<string, string> = {}) =>
    startNodeServer({
      name,
      cwd: root,
      entry: 'src/proxy/main.ts',
      env: { ...env, ...extra },
      probePath: '/healthz',
    });
  try {
    const memory = await instance('one instance, in memory');
    const [pollId] = await openPollIdsFromProxy(memory.url, 1);
    if (pollId === undefined) throw new Error('The sandbox has no open poll.');
    const cpuPerRead = await pollingCpuPerRead(memory, pollId);
    const cases = [await fanOut(platform, 'memory', 'one instance, in memory', [memory], pollId)];
    await memory.stop();
    const pair = [
      await instance('instance 1 of 2, Redis', { FAN_POLLS_REDIS_URL: redis.url }),
      await instance('instance 2 of 2, Redis', { FAN_POLLS_REDIS_URL: redis.url }),
    ];
    try {
      cases.push(await fanOut(platform, 'redis', 'two instances, Redis', pair, pollId));
    } finally {
      await Promise.all(pair.map((server) => server.stop()));
    }
    if (process.env.STREAM_BENCH_EDGE !== '0') {
      const edge = await edgeInstance(env);
      try {
        const count = Math.min(streamCount, edgeStreamCount());
        const name = `the edge build on workerd, one Durable Object${count < streamCount ? ' (the most this machine allows)' : ''}`;
        cases.push(await fanOut(platform, 'edge', name, [edge], pollId, count));
      } finally {
        await edge.stop();
      }
    }
    await recordBenchResults('proxy-stream', report(cases, cpuPerRead));
  } finally {
    await redis.close();
    await platform.close();
  }
}

/**
 * The streams workerd can hold under the open-file limit: it keeps two descriptors a connection (a socket and its
 * `dup`), and at the limit it stops accepting and exits. 1,000 are left for its own files and the bench's reads.
 */
function edgeStreamCount(): number {
  const limit = Number(/^Max open files\s+(\d+)/m.exec(readFileSync('/proc/self/limits', 'utf8'))?.[1] ?? 0);
  return Math.max(0, Math.floor((limit - 1000) / 2));
}

/** The edge bundle on workerd (its streams in the poll streams' Durable Object), with the Node proxies' settings. */
async function edgeInstance(env: Record<string, string>): Promise<Instance> {
  const { NODE_ENV: _nodeEnv, ...settings } = env;
  const workerd = await startWorkerd(await buildEdgeBundle(), { ...settings, FAN_POLLS_LOG_LEVEL: 'warn' });
  const pid = workerd.pid() ?? 0;
  return {
    name: 'workerd',
    url: workerd.url,
    pid,
    cpuSeconds: () => treeCpuSeconds(pid),
    stop: async () => {
      // What workerd said, when it said anything (it prints nothing while all is well at this log level).
      if (workerd.output.length > 0) console.log(`workerd: ${workerd.output.slice(-5).join(' | ')}`);
      await workerd.close();
    },
  };
}

/** Server CPU-seconds per cached read of the poll, at `pollingRate` for `pollingSeconds` after a 2 s warm-up. */
async function pollingCpuPerRead(server: PeerServer, pollId: string): Promise<number> {
  const load = { name: 'cached read', server, path: `/api/polls/${pollId}`, headers: { Origin: pageOrigin } };
  await measureLoad(load, { connections: 50, duration: 2, overallRate: pollingRate });
  const { result, cpu } = await measureLoad(load, {
    connections: 50,
    duration: pollingSeconds,
    overallRate: pollingRate,
  });
  console.log(
    `Polling: ${String(result.requests.total)} cached reads at ${String(pollingRate)}/s in ${String(pollingSeconds)} s, ${cpu.toFixed(2)} CPU-s (statuses ${Object.keys(result.statusCodeStats).join(', ')}).`,
  );
  return cpu / Math.max(1, result.requests.total);
}

/** `count` streams spread over `instances`, then `roundCount` changes at the platform, each fanned out. */
async function fanOut(
  platform: TimedSandbox,
  kind: CaseKind,
  name: string,
  instances: readonly Instance[],
  pollId: string,
  count = streamCount,
): Promise<CaseFigures> {
  const clients = startStreamClients();
  try {
    const residentBefore = sum(instances.map((server) => residentBytes(server.pid)));
    const urls = Array.from(
      { length: count },
      (_, index) => `${instances[index % instances.length]?.url ?? ''}${pollStreamPath}?ids[]=${pollId}`,
    );
    // One stream per instance first: the poll is watched there before the rest ask (a stream of a poll no stream
    // watches spends the client's budget of cache misses, and every client here is one address).
    const first = await clients.open(urls.slice(0, instances.length), pageOrigin, 1);
    const rest = await clients.open(urls.slice(instances.length), pageOrigin, openConcurrency);
    const open = first.open + rest.open;
    const residentPerStream =
      (sum(instances.map((server) => residentBytes(server.pid))) - residentBefore) / Math.max(1, open);
    console.log(`${name}: ${String(open)} streams open, ${String(first.refused + rest.refused)} refused.`);
    const cpuNow = () => sum(instances.map((server) => server.cpuSeconds()));
    const idleCpuBefore = cpuNow();
    const idleStarted = monotonicMs();
    await new Promise((resolve) => setTimeout(resolve, idleSeconds * 1000));
    const idleCpuPerSecond = (cpuNow() - idleCpuBefore) / ((monotonicMs() - idleStarted) / 1000);
    const cpuBefore = cpuNow();
    const started = monotonicMs();
    const probe = readProbe(`${instances[0]?.url ?? ''}/api/polls/${pollId}`);
    const rounds: RoundFigures[] = [];
    const stored = platform.sandbox.state.polls.published().find((poll) => poll.id.toLowerCase() === pollId);
    if (stored === undefined) throw new Error(`No poll ${pollId} at the sandbox.`);
    for (let round = 1; round <= roundCount; round += 1) {
      const answerId = stored.answers[round % stored.answers.length]?.id ?? '';
      platform.sandbox.state.polls.recordSimulatedVote(
        stored,
        answerId,
        `stream-bench-${crypto.randomUUID()}`,
        1,
      );
      // The first event of every stream was the copy at its opening; this round's change is event `round + 1`.
      const arrivals = [...(await clients.events(round + 1, 3 * windowSeconds * 1000))];
      const arrived = arrivals.filter((at) => !Number.isNaN(at)).sort((a, b) => a - b);
      const firstArrival = arrived[0] ?? Number.POSITIVE_INFINITY;
      const refreshedAt =
        platform
          .answeredAt(pollId)
          .filter((at) => at <= firstArrival)
          .at(-1) ?? firstArrival;
      const delays = arrived.map((at) => at - refreshedAt);
      rounds.push({
        p50: quantile(delays, 0.5),
        p95: quantile(delays, 0.95),
        p99: quantile(delays, 0.99),
        last: delays.at(-1) ?? Number.NaN,
        delivered: delays.length,
      });
    }
    return {
      kind,
      name,
      open,
      refused: first.refused + rest.refused,
      residentPerStream,
      idleCpuPerSecond,
      rounds,
      cpuSeconds: cpuNow() - cpuBefore,
      readTimes: await probe.stop(),
      seconds: (monotonicMs() - started) / 1000,
    };
  } finally {
    await clients.close();
  }
}

/** A case's figures over its rounds. */
interface CaseSummary {
  readonly p50: number;
  readonly p95: number;
  readonly p99: number;
  readonly last: number;
  readonly worstLast: number;
  readonly residentKb: number;
  readonly idlePerMinute: number;
  /** CPU-s per 1,000 events, the idle rate taken off, and with it. */
  readonly events: number;
  readonly eventsWithIdle: number;
  /** The cached reads meanwhile, sorted. */
  readonly reads: readonly number[];
  /** Proxy CPU-s for 10,000 pages for a minute, streamed. */
  readonly streamedMinute: number;
}

function summaryOf(figures: CaseFigures): CaseSummary {
  const medianOf = (pick: (round: RoundFigures) => number) =>
    quantile(
      figures.rounds.map(pick).sort((a, b) => a - b),
      0.5,
    );
  const delivered = sum(figures.rounds.map((round) => round.delivered));
  const eventsCpu = Math.max(0, figures.cpuSeconds - figures.idleCpuPerSecond * figures.seconds);
  const events = (eventsCpu / Math.max(1, delivered)) * 1000;
  const idlePerMinute = figures.idleCpuPerSecond * 60;
  // A page of three cards and a banner streamed: two streams, one event each per change.
  const streams = pagesCompared * streamsPerPage;
  const changesPerMinute = 60 / windowSeconds;
  return {
    p50: medianOf((round) => round.p50),
    p95: medianOf((round) => round.p95),
    p99: medianOf((round) => round.p99),
    last: medianOf((round) => round.last),
    worstLast: Math.max(...figures.rounds.map((round) => round.last)),
    residentKb: figures.residentPerStream / 1024,
    idlePerMinute,
    events,
    eventsWithIdle: (figures.cpuSeconds / Math.max(1, delivered)) * 1000,
    reads: [...figures.readTimes].sort((a, b) => a - b),
    streamedMinute:
      (streams * changesPerMinute * events) / 1000 + (idlePerMinute * streams) / Math.max(1, figures.open),
  };
}

/** Prints every case's rounds and figures; answers the figures of record. */
function report(cases: readonly CaseFigures[], cpuPerRead: number): Figure[] {
  const ms = (value: number) => value.toFixed(0);
  const [loadOne, loadFive] = loadavg();
  console.log(
    `\n${String(streamCount)} streams of one poll, ${String(roundCount)} rounds of one change each, a ${String(windowSeconds)} s window; machine load ${loadOne?.toFixed(2) ?? '?'} (1 min), ${loadFive?.toFixed(2) ?? '?'} (5 min) at the end, ${String(cpus().length)} cores. Delays from the platform's answer to the proxy's refresh read to each stream's event.`,
  );
  console.log('| case | streams | round | p50 ms | p95 ms | p99 ms | last ms | delivered |');
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const figures of cases) {
    figures.rounds.forEach((round, index) => {
      console.log(
        `| ${figures.name} | ${String(figures.open)} | ${String(index + 1)} | ${ms(round.p50)} | ${ms(round.p95)} | ${ms(round.p99)} | ${ms(round.last)} | ${String(round.delivered)} |`,
      );
    });
  }
  console.log(
    '\n| case | median p50 ms | median p95 ms | median p99 ms | median last ms | worst last ms | kB resident per idle stream | idle CPU-s a minute | CPU-s per 1,000 events (with idle) | a cached read meanwhile: p50 / p99 / max ms |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  const summaries = new Map(cases.map((figures) => [figures.kind, { figures, summary: summaryOf(figures) }]));
  for (const { figures, summary } of summaries.values()) {
    console.log(
      `| ${figures.name} | ${ms(summary.p50)} | ${ms(summary.p95)} | ${ms(summary.p99)} | ${ms(summary.last)} | ${ms(summary.worstLast)} | ${summary.residentKb.toFixed(1)} | ${summary.idlePerMinute.toFixed(2)} | ${summary.events.toFixed(3)} (${summary.eventsWithIdle.toFixed(3)}) | ${readTimes(summary.reads)} |`,
    );
  }
  const pollingCpuMinute = pagesCompared * pollingReadsPerPageMinute * cpuPerRead;
  console.log(
    `\nPolling: ${(cpuPerRead * 1e6).toFixed(1)} µs CPU per cached read, ${(cpuPerRead * 1000).toFixed(3)} CPU-s per 1,000 reads.`,
  );
  console.log(
    `${String(pagesCompared)} pages of three cards and a banner for a minute, a change every window: polling (${String(pollingReadsPerPageMinute)} reads a page a minute) ${pollingCpuMinute.toFixed(1)} CPU-s; streamed (${String(streamsPerPage)} streams a page, ${String(60 / windowSeconds)} events each, the idle cost scaled to the streams):`,
  );
  for (const { figures, summary } of summaries.values()) {
    console.log(
      `- ${figures.name}: ${summary.streamedMinute.toFixed(1)} CPU-s; polling costs ${(pollingCpuMinute / Math.max(summary.streamedMinute, 1e-9)).toFixed(1)}x that`,
    );
  }
  return figuresOfRecord(summaries, pollingCpuMinute, cpuPerRead);
}

/** The figures BENCHMARKS.md shows, from the cases run. */
function figuresOfRecord(
  summaries: ReadonlyMap<CaseKind, { figures: CaseFigures; summary: CaseSummary }>,
  pollingCpuMinute: number,
  cpuPerRead: number,
): Figure[] {
  const ms = (value: number) => Math.round(value).toLocaleString('en-US');
  const delay = (summary: CaseSummary) =>
    `p50 ${ms(summary.p50)}, p95 ${ms(summary.p95)}, last stream ${ms(summary.last)} ms; medians of ${String(roundCount)} rounds, the slowest ${ms(summary.worstLast)} ms`;
  const round3 = (value: number) => Math.round(value * 1000) / 1000;
  const memory = summaries.get('memory');
  const redis = summaries.get('redis');
  const edge = summaries.get('edge');
  const figures: Figure[] = [];
  const withinASecond = { comparison: '<=', value: 1000 } as const;
  if (memory !== undefined) {
    const { summary, figures: run } = memory;
    figures.push(
      {
        id: 'one-instance-delay-p99',
        what: `${run.open.toLocaleString('en-US')} streams on one instance: one change, from the platform's answer to each event, p99`,
        value: Math.round(summary.p99),
        unit: 'ms',
        detail: delay(summary),
        target: withinASecond,
      },
      {
        id: 'cached-read-during-rounds-p99',
        what: 'one instance: a cached read every 20 ms (open loop) during the rounds, p99',
        value: Math.round(quantile(summary.reads, 0.99)),
        unit: 'ms',
        detail: `max ${ms(summary.reads.at(-1) ?? Number.NaN)} ms`,
      },
      {
        id: 'memory-per-stream',
        what: `resident memory per idle stream, ${run.open.toLocaleString('en-US')} streams on one instance`,
        value: Math.round(summary.residentKb * 10) / 10,
        unit: 'kB',
      },
      {
        id: 'cpu-per-1000-events',
        what: 'proxy CPU per 1,000 events delivered',
        value: round3(summary.events),
        unit: 'CPU-s',
        detail: `${String(round3(cpuPerRead * 1000))} CPU-s per 1,000 cached reads, same instance, same run`,
      },
      {
        id: 'streamed-over-polling',
        what: '10,000 pages (three cards and a banner) for a minute, a change every window: proxy CPU streamed over polling',
        value: Math.round((summary.streamedMinute / pollingCpuMinute) * 100) / 100,
        unit: 'x',
        detail: `${summary.streamedMinute.toFixed(1)} against ${pollingCpuMinute.toFixed(1)} CPU-s${redis === undefined ? '' : `; two instances ${redis.summary.streamedMinute.toFixed(1)} CPU-s`}`,
        target: { comparison: '<', value: 1 },
      },
    );
  }
  if (redis !== undefined)
    figures.push({
      id: 'two-instances-delay-p99',
      what: `${redis.figures.open.toLocaleString('en-US')} streams on two instances sharing Redis: the same, p99`,
      value: Math.round(redis.summary.p99),
      unit: 'ms',
      detail: delay(redis.summary),
      target: withinASecond,
    });
  if (edge !== undefined) {
    const { summary, figures: run } = edge;
    const node =
      memory === undefined
        ? ''
        : `; one Node instance, same run: p99 ${ms(memory.summary.p99)} ms, ${String(round3(memory.summary.events))} CPU-s`;
    figures.push({
      id: 'edge-delay-p99',
      what: `the edge build on workerd, ${run.open.toLocaleString('en-US')} streams in one Durable Object${run.open < streamCount ? ' (the most the open-file limit allows)' : ''}: the same, p99`,
      value: Math.round(summary.p99),
      unit: 'ms',
      detail: `p50 ${ms(summary.p50)}, p95 ${ms(summary.p95)}, last stream ${ms(summary.last)} ms, the slowest round ${ms(summary.worstLast)} ms; ${summary.residentKb.toFixed(1)} kB resident per idle stream, ${String(round3(summary.events))} CPU-s per 1,000 events${node}`,
      target: withinASecond,
    });
  }
  return figures;
}

/**
 * A reader of `url` every `readProbeEveryMs`, until stopped: each read's time in ms. Open loop (a read goes out when
 * due, whether or not the last one came back), so a stalled instance delays every read due meanwhile, not just one.
 */
function readProbe(url: string): { stop(): Promise<number[]> } {
  const times: number[] = [];
  const reads = new Set<Promise<void>>();
  const timer = setInterval(() => {
    const dueAt = monotonicMs();
    const read = fetch(url, { headers: { Origin: pageOrigin } })
      .then((answer) => answer.arrayBuffer())
      .then(
        () => {
          times.push(monotonicMs() - dueAt);
        },
        () => {
          // No answer: as slow as can be.
          times.push(Number.POSITIVE_INFINITY);
        },
      );
    reads.add(read);
    void read.finally(() => reads.delete(read));
  }, readProbeEveryMs);
  return {
    stop: async () => {
      clearInterval(timer);
      await Promise.all(reads);
      return times;
    },
  };
}

/** p50 / p99 / max of read times, in ms. */
function readTimes(times: readonly number[]): string {
  const sorted = [...times].sort((a, b) => a - b);
  const ms = (value: number) => value.toFixed(1);
  return `${ms(quantile(sorted, 0.5))} / ${ms(quantile(sorted, 0.99))} / ${ms(sorted.at(-1) ?? Number.NaN)}`;
}

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}

/** The `share` quantile of sorted values (nearest rank). */
function quantile(sorted: readonly number[], share: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)] ?? Number.NaN;
}
