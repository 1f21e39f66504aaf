// What the club's analytics cost the proxy. Two proxies with Redis in their own processes against one sandbox, the
// same but for `FAN_POLLS_ANALYTICS`: server CPU per vote and per sign-in with counting on over off, in alternating
// rounds. Then one client floods the beacon route at 10,000 beacons a second: what is refused, and the proxy's memory.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { analyticsPaths } from '../../src/contracts/analytics-contract.ts';
import { csrfHeaderName, csrfHeaderValue, proxyRoutes } from '../../src/contracts/proxy-contract.ts';
import { recordBenchResults } from '../../src/dev/bench-results.ts';
import { demoRegisteredApplication } from '../../src/sandbox/applications.ts';
import { serveSandbox } from '../../src/sandbox/serve.ts';
import { callAt, signIn } from '../integration/proxy-harness.ts';
import { openRiversidePollFromProxy } from '../support/open-poll.ts';
import { waitUntil } from '../support/wait-until.ts';
import type { TestRedis } from '../support/redis-server.ts';
import { autocannon, measureLoad, median, type AutocannonResult, type RoundSettings } from './load-rounds.ts';
import { residentBytes, startNodeServer, type PeerServer } from './peer-servers.ts';

const pageOrigin = 'http://127.0.0.1:4999';
const root = fileURLToPath(new URL('../..', import.meta.url));
const tracking = { campaign: 'derby', referrer: 'newsletter' };
const signInsPerRound = Number(process.env.PROXY_BENCH_SIGN_INS ?? 60);
/** More rounds than the proxy bench's other parts: on a busy machine one round of one server may be 20 % off. */
const analyticsRounds = Number(process.env.PROXY_BENCH_ANALYTICS_ROUNDS ?? 7);
const floodRate = 10_000;
const grouped = (value: number) => Math.round(value).toLocaleString('en-US');
const floodSeconds = Number(process.env.PROXY_BENCH_FLOOD_SECONDS ?? 10);
const warmUpFloodSeconds = 2;
const floodPartSeconds = 2;
/** `FAN_POLLS_ANALYTICS_SEEN_PER_MINUTE`'s default: one address's cards a minute. */
const seenPerMinute = 120;

export async function analyticsCost(redis: TestRedis, settings: RoundSettings): Promise<void> {
  const sandbox = await serveSandbox({ apiPort: 0, authPort: 0 });
  sandbox.sandbox.state.throttle.requestsPerMinute = 0;
  const probeFolder = mkdtempSync(join(tmpdir(), 'fan-polls-heap-'));
  const heapFile = join(probeFolder, 'heap.json');
  const servers: (PeerServer & { pid: number })[] = [];
  try {
    const env = {
      NODE_ENV: 'development',
      FAN_POLLS_PRESET: 'sandbox',
      FAN_POLLS_PLATFORM_API_URL: sandbox.apiUrl,
      FAN_POLLS_PLATFORM_AUTH_URL: sandbox.authUrl,
      FAN_POLLS_ALLOWED_ORIGINS: pageOrigin,
      FAN_POLLS_REDIS_URL: redis.url,
      // Every sign-in comes from the bench's one address.
      FAN_POLLS_SIGN_IN_PER_MINUTE: '10000',
      HEAP_PROBE_FILE: heapFile,
    };
    const start = (name: string, analytics: string) =>
      startNodeServer({
        name,
        cwd: root,
        entry: 'src/proxy/main.ts',
        env: { ...env, FAN_POLLS_ANALYTICS: analytics },
        probePath: '/api/polls?limit=50',
        probeHeaders: { Origin: pageOrigin },
        nodeOptions: ['--expose-gc', '--import', 'tsx', '--import', './test/bench/heap-probe.ts'],
      });
    const on = await start('analytics on', 'true');
    const off = await start('analytics off', 'false');
    servers.push(on, off);
    sandbox.sandbox.state.applications.register(
      demoRegisteredApplication(servers.map((server) => `${server.url}/auth/callback`)),
    );
    const poll = await openRiversidePollFromProxy(on.url);
    const query = new URLSearchParams({ ...tracking }).toString();

    const voteCpu = new Map<string, number[]>();
    const signInCpu = new Map<string, number[]>();
    const votes = new Map<PeerServer, { path: string; headers: Record<string, string>; body: string }>();
    for (const server of servers) {
      const { cookie } = await signIn({ call: callAt(server.url, []) }, { username: 'sam' });
      votes.set(server, {
        path: `${proxyRoutes.vote(poll.id)}?${query}`,
        headers: {
          Origin: pageOrigin,
          Cookie: cookie ?? '',
          [csrfHeaderName]: csrfHeaderValue,
          'Content-Type': 'application/json',
        },
        body: JSON.stringify({ answerId: poll.answers[0]?.id ?? '' }),
      });
    }
    const voteLoad = (server: PeerServer) => {
      const vote = votes.get(server);
      if (vote === undefined) throw new Error('no vote');
      return { name: server.name, server, method: 'POST' as const, ...vote };
    };
    const signIns = async (server: PeerServer): Promise<number> => {
      const before = server.cpuSeconds();
      for (let index = 0; index < signInsPerRound; index += 1) {
        const { cookie } = await signIn(
          { call: callAt(server.url, []) },
          { username: 'sam', tracking: { ...tracking, poll: poll.id } },
        );
        if (cookie === undefined) throw new Error(`${server.name}: a sign-in ended without a session.`);
      }
      return (server.cpuSeconds() - before) / signInsPerRound;
    };
    const { connections } = settings;
    for (const server of servers) {
      await measureLoad(voteLoad(server), { connections, duration: settings.warmUpSeconds });
      await signIns(server);
    }
    for (let round = 0; round < analyticsRounds; round += 1) {
      const order = round % 2 === 0 ? servers : [...servers].reverse();
      for (const server of order) {
        const { result, cpu } = await measureLoad(voteLoad(server), {
          connections,
          duration: settings.durationSeconds,
        });
        voteCpu.set(server.name, [...(voteCpu.get(server.name) ?? []), cpu / result.requests.total]);
        signInCpu.set(server.name, [...(signInCpu.get(server.name) ?? []), await signIns(server)]);
      }
    }
    const ratios = (figures: Map<string, number[]>) => {
      const off = figures.get('analytics off') ?? [];
      return (figures.get('analytics on') ?? []).map((cpu, round) => cpu / (off[round] ?? Number.NaN));
    };
    const voteRatios = ratios(voteCpu);
    const signInRatios = ratios(signInCpu);
    const µs = (figures: Map<string, number[]>, name: string) =>
      grouped(median(figures.get(name) ?? []) * 1_000_000);
    const [loadOne] = loadavg();
    const machine = `machine load ${loadOne?.toFixed(2) ?? '?'} (1 min) at the end, ${String(cpus().length)} cores`;
    const rounds = (values: readonly number[]) => values.map((value) => value.toFixed(2)).join(', ');
    console.log(
      `Analytics on over off, proxy with Redis, ${String(analyticsRounds)} alternating rounds; ${machine}.`,
    );
    console.log(
      `vote: ${µs(voteCpu, 'analytics on')} µs on, ${µs(voteCpu, 'analytics off')} µs off per vote; rounds ${rounds(voteRatios)}; median ${median(voteRatios).toFixed(3)} (target <= 1.05)`,
    );
    console.log(
      `sign-in: ${µs(signInCpu, 'analytics on')} µs on, ${µs(signInCpu, 'analytics off')} µs off per sign-in; rounds ${rounds(signInRatios)}; median ${median(signInRatios).toFixed(3)} (target <= 1.05)`,
    );

    // The flood: one address, one page view, beacons of one card, sent at 10,000 a second.
    const heap = async (): Promise<NodeJS.MemoryUsage> => {
      rmSync(heapFile, { force: true });
      process.kill(on.pid, 'SIGUSR2');
      // The probe renames a whole file into place: once it is there, it is complete.
      await waitUntil(() => Promise.resolve(existsSync(heapFile)), 'the heap probe’s answer');
      return JSON.parse(readFileSync(heapFile, 'utf8')) as NodeJS.MemoryUsage;
    };
    const floodOptions = {
      url: `${on.url}${analyticsPaths.cardsSeen}`,
      method: 'POST' as const,
      headers: { Origin: pageOrigin, 'Content-Type': 'text/plain' },
      body: JSON.stringify({ pageView: 'bench-flood-page-view', cards: [{ poll: poll.id, tracking }] }),
      connections: 50,
      overallRate: floodRate,
    };
    // A short flood first (counted with the rest), so that the refusal's code is compiled before the heap is measured.
    const warmUp = await autocannon({ ...floodOptions, duration: warmUpFloodSeconds });
    // A quiet phase of the measurement (not a wait for an event): the warm-up's sockets close before the first heap.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const heapBefore = await heap();
    const rssBefore = residentBytes(on.pid);
    let rssPeak = rssBefore;
    const sampler = setInterval(() => {
      rssPeak = Math.max(rssPeak, residentBytes(on.pid));
    }, 250);
    // The flood in parts, the heap after a full GC after each: growth that stays shows as a rising series.
    const parts: AutocannonResult[] = [];
    const heaps: number[] = [];
    for (let part = 0; part < floodSeconds / floodPartSeconds; part += 1) {
      parts.push(await autocannon({ ...floodOptions, duration: floodPartSeconds }));
      heaps.push((await heap()).heapUsed);
    }
    clearInterval(sampler);
    const heapAfter = { heapUsed: heaps[heaps.length - 1] ?? Number.NaN };
    const rssAfter = residentBytes(on.pid);
    const answered = (status: string) =>
      [warmUp, ...parts].reduce((sum, result) => sum + (result.statusCodeStats[status]?.count ?? 0), 0);
    const accepted = answered('204');
    const refused = answered('429');
    const sent = [warmUp, ...parts].reduce((sum, result) => sum + result.requests.total, 0);
    const others = Object.entries(parts[parts.length - 1]?.statusCodeStats ?? {})
      .filter(([status]) => status !== '204' && status !== '429')
      .map(([status, { count }]) => `${status} x ${String(count)}`);
    const mb = (bytes: number) => (bytes / 1_048_576).toFixed(1);
    const heapGrowth = (heapAfter.heapUsed - heapBefore.heapUsed) / 1_048_576;
    console.log(
      `beacon flood, ${String(warmUpFloodSeconds + floodSeconds)} s at ${String(floodRate)}/s from one address: ${String(sent)} sent, ${String(accepted)} accepted (target <= ${String(seenPerMinute)}), ${String(refused)} refused 429${others.length > 0 ? `, ${others.join(', ')}` : ''}; heap after GC ${mb(heapBefore.heapUsed)} MB before, ${mb(heapAfter.heapUsed)} MB after (target: at most 5 MB more; after each part ${heaps.map(mb).join(', ')} MB); RSS ${mb(rssBefore)} MB before, ${mb(rssPeak)} MB peak, ${mb(rssAfter)} MB after`,
    );
    const heapNote = `heap after a full GC ${heapGrowth >= 0 ? '+' : ''}${heapGrowth.toFixed(1)} MB (target ≤ 5 MB)`;
    await recordBenchResults('proxy', [
      {
        // The larger of the two, so that the target holds for both.
        id: 'analytics-cpu-on-over-off',
        what: 'a vote and a sign-in, server CPU with analytics counting over off (Redis), the larger',
        value: Number(Math.max(median(voteRatios), median(signInRatios)).toFixed(2)),
        unit: 'x',
        detail: `vote ${median(voteRatios).toFixed(2)}x, ${µs(voteCpu, 'analytics on')} against ${µs(voteCpu, 'analytics off')} µs; sign-in ${median(signInRatios).toFixed(2)}x; medians of ${String(analyticsRounds)} rounds`,
        target: { comparison: '<=', value: 1.05 },
      },
      {
        // The limit a minute of FAN_POLLS_ANALYTICS_SEEN_PER_MINUTE; the heap's growth is in the detail.
        id: 'analytics-beacon-flood-accepted',
        what: `beacons accepted from one address sending up to ${grouped(floodRate)} a second for ${String(warmUpFloodSeconds + floodSeconds)} s`,
        value: accepted,
        unit: '',
        detail: `${grouped(sent)} sent, ${grouped(refused)} refused; ${heapNote}`,
        target: { comparison: '<=', value: seenPerMinute },
      },
    ]);
  } finally {
    for (const server of servers) await server.stop();
    rmSync(probeFolder, { recursive: true, force: true });
    await sandbox.close();
  }
}
