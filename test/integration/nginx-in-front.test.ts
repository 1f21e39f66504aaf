// The shipped nginx recipe (`examples/nginx/fan-polls.conf`) in front of two proxy instances on one Redis, as a club
// runs it on match day: cached reads from three allowed page origins and one that is not, fans signing in and voting
// through nginx, and one instance restarting under it. What is asserted is what nginx kept (its own log of
// `$upstream_cache_status`), what each origin got, what reached the proxies, and what the platform recorded.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Poll } from '../../src/platform/types.ts';
import { proxyRoutes } from '../../src/contracts/proxy-contract.ts';
import { freePort } from '../support/free-port.ts';
import { waitUntil } from '../support/wait-until.ts';
import { startNginxInFront, type NginxInFront } from '../support/nginx-in-front.ts';
import { openRiversidePoll } from '../support/open-poll.ts';
import { startRedis, type TestRedis } from '../support/redis-server.ts';
import { callAt, fanHeaders, pageOrigin, signIn, startHarness, type Harness } from './proxy-harness.ts';
import { fans as sandboxFans } from '../../src/sandbox/data/fans.ts';

const allowedOrigins = [pageOrigin, 'https://www.club.example', 'https://news.example'];
const refusedOrigin = 'https://elsewhere.example';
const freshSeconds = 2;

let redis: TestRedis;
let first: Harness;
let second: Harness;
let nginx: NginxInFront;
let throughNginx: Harness['call'];

beforeAll(async () => {
  redis = await startRedis();
  // The proxies' public address is nginx's: the platform sends fans back through it.
  const nginxPort = await freePort();
  const publicUrl = `http://127.0.0.1:${String(nginxPort)}`;
  first = await startHarness({
    redisUrl: redis.url,
    publicUrl,
    allowedOrigins,
    allowLoopbackOrigins: false,
    pollCacheSeconds: freshSeconds,
    signInPerMinute: 100,
  });
  second = await first.addInstance();
  nginx = await startNginxInFront([first.proxy.url, second.proxy.url], nginxPort);
  throughNginx = callAt(nginx.url, []);
}, 60_000);

afterAll(async () => {
  await nginx.stop();
  await second.close();
  await first.close();
  await redis.close();
});

/** An open poll, read through nginx. */
async function openPoll(): Promise<Poll> {
  const answer = await throughNginx('/api/polls?limit=50');
  return openRiversidePoll(((await answer.json()) as { data: Poll[] }).data);
}

/** Reads of one poll from every origin, a few at once each, as many pages would. */
async function readsFromEveryOrigin(pollId: string) {
  return Promise.all(
    [...allowedOrigins, refusedOrigin].flatMap((origin) =>
      Array.from({ length: 3 }, async () => {
        const answer = await throughNginx(proxyRoutes.poll(pollId), {
          origin,
          headers: { 'Accept-Encoding': 'gzip' },
        });
        return {
          origin,
          status: answer.status,
          allowOrigin: answer.headers.get('access-control-allow-origin'),
        };
      }),
    ),
  );
}

const proxiedReadsOf = (harness: Harness) =>
  harness.logLines.filter((line) => line.includes('"route":"/api/polls/:pollId"')).length;

/** The votes the platform recorded in a poll by the sandbox's fans (its simulated fans vote beside them). */
const fanIds = new Set(sandboxFans.map((fan) => fan.userId));
const votesIn = (harness: Harness, pollId: string) =>
  harness.sandbox.sandbox.state.polls.find(pollId)?.votes.filter((vote) => fanIds.has(vote.userId)) ?? [];

describe('nginx with the shipped recipe in front of two proxy instances', () => {
  it('caches only the public reads, per origin, through sign-ins, votes and a restart', async () => {
    const poll = await openPoll();
    const answerId = poll.answers[0]?.id ?? '';
    const votesBefore = votesIn(first, poll.id).length;
    const startedAt = Date.now();
    const reads = [];

    reads.push(...(await readsFromEveryOrigin(poll.id)));
    const sam = await signIn({ call: throughNginx }, { username: 'sam' });
    expect(sam.cookie).toBeDefined();
    const samVote = await throughNginx(proxyRoutes.vote(poll.id), {
      method: 'POST',
      cookie: sam.cookie,
      headers: { ...fanHeaders, 'Content-Type': 'application/json' },
      body: JSON.stringify({ answerId }),
    });
    expect(samVote.status).toBe(201);
    reads.push(...(await readsFromEveryOrigin(poll.id)));

    // One instance restarts where it was: reads and a vote go on meanwhile.
    const port = Number(new URL(second.proxy.url).port);
    await second.proxy.close({ graceMs: 1000 });
    reads.push(...(await readsFromEveryOrigin(poll.id)));
    // Until nginx's copy is out of date and it asks the instance that is left.
    await waitUntil(async () => {
      const read = await throughNginx(proxyRoutes.poll(poll.id), { headers: { 'Accept-Encoding': 'gzip' } });
      reads.push({
        origin: pageOrigin,
        status: read.status,
        allowOrigin: read.headers.get('access-control-allow-origin'),
      });
      return read.headers.get('x-cache-status') !== 'HIT';
    }, 'nginx to refresh its copy while an instance is down');
    reads.push(...(await readsFromEveryOrigin(poll.id)));
    const alex = await signIn({ call: throughNginx }, { username: 'alex' });
    const alexVote = await throughNginx(proxyRoutes.vote(poll.id), {
      method: 'POST',
      cookie: alex.cookie,
      headers: { ...fanHeaders, 'Content-Type': 'application/json' },
      body: JSON.stringify({ answerId }),
    });
    second = await first.addInstance(port);
    reads.push(...(await readsFromEveryOrigin(poll.id)));
    const windows = Math.ceil((Date.now() - startedAt) / (freshSeconds * 1000)) + 1;

    // Every read was answered, and each origin got its own CORS grant; the refused origin never got one.
    for (const read of reads) {
      expect(read.status, read.origin).toBe(200);
      expect(read.allowOrigin, read.origin).toBe(read.origin === refusedOrigin ? null : read.origin);
    }
    // The platform recorded each fan's vote once, the one sent while an instance was down included.
    const votes = votesIn(first, poll.id);
    const fans = votes
      .slice(votesBefore)
      .map((vote) => `${vote.userId} at ${String(vote.castAt - startedAt)} ms`);
    expect([alexVote.status, votes.length - votesBefore], fans.join(', ')).toEqual([201, 2]);

    const log = nginx.log();
    // nginx never served a cookie or a personal answer from its cache, and kept nothing but the public reads.
    const fromCache = log.filter((line) => ['HIT', 'STALE', 'UPDATING', 'REVALIDATED'].includes(line.cache));
    expect(fromCache.length).toBeGreaterThan(reads.length / 2);
    for (const line of fromCache) {
      expect(line.setCookie, line.path).toBe('-');
      expect(line.path, line.cache).toMatch(/^\/(api\/polls|widget|configurator)(\/|\?|$)/);
    }
    for (const line of log.filter((each) => /^\/(auth|api\/user|extension)\//.test(each.path)))
      expect([line.path, line.cache, line.cacheControl]).toEqual([line.path, '-', 'private, no-store']);
    // The proxies saw at most one read of the poll per freshness window for each origin and encoding nginx keeps
    // apart (4 origins), not one per page: the reads made were several times that.
    const proxied = proxiedReadsOf(first);
    expect(proxied).toBeLessThanOrEqual(windows * 4);
    expect(reads.length).toBeGreaterThan(proxied * 2);
  });
});
