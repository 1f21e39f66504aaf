// How many requests the page's live poll store sends: on fake time (an injected scheduler), against the real platform
// sandbox in-process (gateway, token check, throttle, fault profile), through the real platform client.
import { demoApplication } from '../../src/local-defaults.ts';
import { PlatformClient } from '../../src/platform/client.ts';
import type { FetchLike } from '../../src/platform/http.ts';
import { OAuthClient } from '../../src/platform/oauth.ts';
import type { Poll } from '../../src/platform/types.ts';
import { createLivePollStore, type FetchPolls } from '../../src/polls/live-store.ts';
import { ManualScheduler } from '../../src/polls/manual-scheduler.ts';
import { ManualPageSignals } from '../../src/polls/page-signals.ts';
import { requestableIds } from '../../src/polls/poll-ids.ts';
import { pollFixture } from '../../src/polls/poll-fixture.ts';
import { pollTimeline } from '../../src/polls/poll-phase.ts';
import { SandboxClock } from '../../src/sandbox/clock.ts';
import { seededRandom } from '../../src/sandbox/data/random.ts';
import { createSandbox, type Sandbox } from '../../src/sandbox/sandbox.ts';
import { recordBenchResults } from '../../src/dev/bench-results.ts';
import { inProcessFetch } from '../../src/sandbox/test-kit.ts';

const minute = 60_000;
const apiUrl = 'http://127.0.0.1:1';
const authUrl = 'http://127.0.0.1:2';

interface Rig {
  readonly sandbox: Sandbox;
  readonly scheduler: ManualScheduler;
  readonly signals: ManualPageSignals;
  readonly fetchPolls: FetchPolls;
  /** Instants (fake ms) of every poll read that reached the sandbox's resource API. */
  readonly requests: number[];
  /** Ids per request. */
  readonly batchSizes: number[];
  readonly openPollIds: string[];
  readonly publishedIds: string[];
  advance(ms: number): Promise<void>;
}

/** A fresh sandbox on fake time, an application token, and a counting fetch routed to the sandbox in-process. */
async function rig(): Promise<Rig> {
  const start = Date.UTC(2026, 4, 1, 12, 0, 0);
  const scheduler = new ManualScheduler(start);
  const clock = new SandboxClock();
  clock.freeze();
  clock.set(start);
  const sandbox = createSandbox({ clock, simulatedVotesPerMinute: 0 });
  const requests: number[] = [];
  const batchSizes: number[] = [];
  const inFlight = new Set<Promise<unknown>>();
  const toSandbox = inProcessFetch(sandbox, apiUrl);
  const fetch: FetchLike = (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    clock.set(scheduler.now());
    if (url.origin === apiUrl && url.pathname.startsWith('/polls/')) {
      requests.push(scheduler.now());
      batchSizes.push(url.searchParams.getAll('ids[]').length);
    }
    const answer = toSandbox(request);
    inFlight.add(answer);
    void answer.finally(() => inFlight.delete(answer)).catch(() => undefined);
    return answer;
  };
  const oauth = new OAuthClient({
    authUrl,
    allowInsecureRequests: true,
    fetch,
    clientId: demoApplication.clientId,
    clientSecret: demoApplication.clientSecret,
    now: () => scheduler.now(),
  });
  const { accessToken } = await oauth.clientCredentials();
  const client = new PlatformClient({
    apiUrl,
    allowInsecureRequests: true,
    fetch,
    tokens: { application: () => Promise.resolve(accessToken) },
    now: () => scheduler.now(),
  });
  const published = await client.listPolls({ limit: 100 });
  requests.length = 0;
  batchSizes.length = 0;
  const settle = async () => {
    for (let turn = 0; turn < 20; turn += 1) {
      await Promise.allSettled([...inFlight]);
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (inFlight.size === 0) return;
    }
  };
  return {
    sandbox,
    scheduler,
    signals: new ManualPageSignals(),
    // The store's reads straight from the platform (the sandbox), every id in one request.
    fetchPolls: async (ids) => {
      const wanted = requestableIds(ids);
      return wanted.length === 0 ? [] : client.listPolls({ ids: wanted, limit: wanted.length });
    },
    requests,
    batchSizes,
    openPollIds: published
      .filter((poll) => pollTimeline(poll, start).phase === 'open')
      .map((poll) => poll.id),
    publishedIds: published.map((poll) => poll.id),
    advance: (ms) => scheduler.advanceBy(ms, settle),
  };
}

function storeOn(r: Rig, random: () => number = seededRandom(1), fetchPolls: FetchPolls = r.fetchPolls) {
  return createLivePollStore({ fetchPolls, scheduler: r.scheduler, signals: r.signals, random });
}

/** Steady-state requests a minute over ten minutes, after the first read; `batches` lists ids per request. */
async function steadyRate(
  r: Rig,
  cards: readonly string[],
  source: { fetchPolls: FetchPolls; batches: number[] } = { fetchPolls: r.fetchPolls, batches: r.batchSizes },
) {
  const store = storeOn(r, undefined, source.fetchPolls);
  for (const id of cards) store.subscribe(id, () => undefined);
  await r.advance(1000);
  const before = source.batches.length;
  await r.advance(10 * minute);
  store.dispose();
  const measured = source.batches.slice(before);
  return { perMinute: measured.length / 10, idsPerRequest: Math.max(0, ...measured) };
}

/** Largest number of requests in any 60-second window. */
function busiestMinute(times: readonly number[]): number {
  let most = 0;
  for (const [index, time] of times.entries()) {
    most = Math.max(most, times.slice(index).filter((other) => other < time + minute).length);
  }
  return most;
}

async function outage(seed: number) {
  const r = await rig();
  const store = storeOn(r, seededRandom(seed));
  const ids = r.openPollIds;
  for (let card = 0; card < 50; card += 1) store.subscribe(ids[card % ids.length] ?? '', () => undefined);
  await r.advance(1000);
  r.sandbox.faults.failNext(1_000_000);
  const before = r.requests.length;
  await r.advance(10 * minute);
  store.dispose();
  return r.requests.length - before;
}

async function storm(seed: number) {
  const r = await rig();
  const store = storeOn(r, seededRandom(seed));
  for (const id of r.openPollIds) store.subscribe(id, () => undefined);
  await r.advance(1000);
  r.sandbox.faults.throttleNext(1_000_000, 60);
  const before = r.requests.length;
  await r.advance(10 * minute);
  store.dispose();
  const during = r.requests.slice(before);
  return { total: during.length, busiest: busiestMinute(during) };
}

function summary(values: readonly number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
  return `min ${sorted[0] ?? 0}, median ${median}, max ${sorted.at(-1) ?? 0} (${values.length} seeds)`;
}

export default async function liveStoreBench(): Promise<void> {
  const rows: string[][] = [];
  const probe = await rig();
  const onePoll = probe.openPollIds[0];
  if (onePoll === undefined) throw new Error('The sandbox has no open poll to read.');
  console.log(
    `sandbox: ${probe.publishedIds.length} published polls, ${probe.openPollIds.length} open; pace open 5 s; fake time`,
  );

  for (const cards of [1, 10, 50]) {
    const r = await rig();
    const { perMinute, idsPerRequest } = await steadyRate(r, Array<string>(cards).fill(onePoll));
    rows.push([`${cards} card(s), one open poll`, `${perMinute}`, `${idsPerRequest}`]);
  }

  // The sandbox seeds fewer than 50 polls: the other ids are unknown to it (not_found) but ride in the same request.
  const fifty = await rig();
  const fiftyIds = [
    ...fifty.publishedIds,
    ...Array.from(
      { length: 50 - fifty.publishedIds.length },
      (_, index) => `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
    ),
  ].slice(0, 50);
  const mixed = await steadyRate(fifty, fiftyIds);
  rows.push([
    `50 cards, 50 different polls (sandbox: ${fifty.publishedIds.length} seeded, all phases)`,
    `${mixed.perMinute}`,
    `${mixed.idsPerRequest}`,
  ]);

  // The same with 50 polls that all exist and are all open: an in-memory source, counted the same way.
  const memory = await rig();
  const openFifty = Array.from({ length: 50 }, (_, index) =>
    pollFixture({
      id: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
      openAt: new Date(memory.scheduler.now() - minute).toISOString(),
      closeAt: new Date(memory.scheduler.now() + 24 * 60 * minute).toISOString(),
    }),
  );
  const memoryBatches: number[] = [];
  const memorySource: FetchPolls = (ids) => {
    memoryBatches.push(ids.length);
    return Promise.resolve(openFifty.filter((poll: Poll) => ids.includes(poll.id)));
  };
  const allOpen = await steadyRate(
    memory,
    openFifty.map((poll) => poll.id),
    { fetchPolls: memorySource, batches: memoryBatches },
  );
  rows.push([
    '50 cards, 50 different open polls (in-memory source)',
    `${allOpen.perMinute}`,
    `${allOpen.idsPerRequest}`,
  ]);

  console.log('\n| cards | requests a minute | ids per request |\n|---|---|---|');
  for (const row of rows) console.log(`| ${row.join(' | ')} |`);

  // Hidden: 50 cards read once while visible, then ten minutes hidden; and a page hidden from the start.
  const hidden = await rig();
  const hiddenStore = storeOn(hidden);
  for (const id of fiftyIds) hiddenStore.subscribe(id, () => undefined);
  await hidden.advance(1000);
  hidden.signals.setVisible(false);
  const beforeHidden = hidden.requests.length;
  await hidden.advance(10 * minute);
  const whileHidden = hidden.requests.length - beforeHidden;
  hidden.signals.setVisible(true);
  await hidden.advance(0);
  const onShow = hidden.requests.length - beforeHidden - whileHidden;
  hiddenStore.dispose();
  const background = await rig();
  background.signals.setVisible(false);
  const backgroundStore = storeOn(background);
  for (const id of fiftyIds) backgroundStore.subscribe(id, () => undefined);
  await background.advance(10 * minute);
  backgroundStore.dispose();
  console.log(
    `\nhidden: ${whileHidden} requests in 10 minutes hidden (50 cards), ${onShow} on showing again; ` +
      `${background.requests.length} in 10 minutes for a page hidden from the start`,
  );

  const seeds = Array.from({ length: 20 }, (_, index) => index + 1);
  const outages: number[] = [];
  for (const seed of seeds) outages.push(await outage(seed));
  console.log(`outage (every request 5xx, 10 minutes, 50 cards): requests ${summary(outages)}`);

  const storms: { total: number; busiest: number }[] = [];
  for (const seed of seeds.slice(0, 5)) storms.push(await storm(seed));
  console.log(
    `429 storm (Retry-After 60 s, 10 minutes): requests ${summary(storms.map((s) => s.total))}; ` +
      `busiest 60-second window ${Math.max(...storms.map((s) => s.busiest))}`,
  );

  const sortedOutages = [...outages].sort((a, b) => a - b);
  await recordBenchResults('live-store', [
    {
      id: 'requests-a-minute',
      what: 'requests a minute for 1, 10 or 50 cards (one poll or 50): one batched read a 5 s tick',
      value: Math.max(...rows.map((row) => Number(row[1]))),
      unit: '',
      target: { comparison: '<=', value: 12 },
    },
    {
      id: 'hidden-requests',
      what: 'requests in 10 minutes with the page hidden',
      value: whileHidden + background.requests.length,
      unit: '',
      target: { comparison: '=', value: 0 },
    },
    {
      id: 'outage-requests',
      what: '10-minute outage, 50 cards, 20 jitter seeds: requests, the most',
      value: sortedOutages.at(-1) ?? 0,
      unit: '',
      detail: `min ${String(sortedOutages[0] ?? 0)}, median ${String(sortedOutages[Math.floor(sortedOutages.length / 2)] ?? 0)}`,
      target: { comparison: '<=', value: 30 },
    },
    {
      id: 'storm-busiest-minute',
      what: '429 storm with `Retry-After: 60`: requests in the busiest 60-second window',
      value: Math.max(...storms.map((s) => s.busiest)),
      unit: '',
      target: { comparison: '<=', value: 1 },
    },
  ]);

  const failures = [
    rows.slice(0, 3).some((row) => row[1] !== rows[0]?.[1])
      ? 'requests a minute depend on the number of cards'
      : '',
    whileHidden + background.requests.length > 0 ? 'requests while hidden' : '',
    Math.max(...outages) > 30 ? 'more than 30 requests in the outage' : '',
    Math.max(...storms.map((s) => s.busiest)) > 1 ? 'more than 1 request a minute in the storm' : '',
  ].filter((failure) => failure !== '');
  console.log(failures.length === 0 ? '\ntargets: all met' : `\ntargets MISSED: ${failures.join('; ')}`);
}
