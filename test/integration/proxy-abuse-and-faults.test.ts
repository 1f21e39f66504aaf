// The proxy under abuse and platform faults, over real sockets against the sandbox's fault profiles: bodies refused
// before they are read, bad filters answered 400 without a platform request, one breaker and one 429 hold for every
// platform call, cached polls served when the platform is slow, and a vote answered before the widget gives up.
import { connect } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ProxyErrorBody } from '../../src/contracts/proxy-contract.ts';
import type { Poll } from '../../src/platform/types.ts';
import { openRiversidePoll } from '../support/open-poll.ts';
import { waitUntil } from '../support/wait-until.ts';
import { castVote, fanHeaders, signIn, startHarness, type Harness } from './proxy-harness.ts';

let harness: Harness;
// The proxy's clock: tests move it to go past holds without waiting (the platform's own clock is not moved).
let shift = 0;

beforeAll(async () => {
  harness = await startHarness({}, { now: () => Date.now() + shift });
});
afterAll(async () => {
  await harness.close();
});
afterEach(() => {
  harness.sandbox.sandbox.state.faults.clear();
  harness.beforeUpstream = undefined;
});

const errorOf = async (response: Response) => ((await response.json()) as ProxyErrorBody).error;
const platformRequests = () => harness.upstream.length;

describe('bodies', () => {
  it('refuses a 100 MB body with 413 before reading it, and memory stays flat', async () => {
    const { cookie } = await signIn(harness);
    const before = process.memoryUsage().rss;
    const chunk = new Uint8Array(1024 * 1024).fill(0x61);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 100) controller.close();
        else {
          sent += 1;
          controller.enqueue(chunk);
        }
      },
    });
    const answer = await fetch(
      `${harness.proxy.url}/api/user/polls/00000000-0000-4000-8000-000000000000/vote`,
      {
        method: 'POST',
        headers: {
          ...fanHeaders,
          Origin: 'http://127.0.0.1:4999',
          Cookie: cookie!,
          'Content-Type': 'application/json',
        },
        body,
        duplex: 'half',
      } as RequestInit,
    );
    expect(answer.status).toBe(413);
    expect((await errorOf(answer)).code).toBe('body_too_large');
    expect(process.memoryUsage().rss - before).toBeLessThan(50 * 1024 * 1024);
    // A declared length over the limit: refused from the header alone.
    const declared = await harness.call('/auth/handoff', {
      method: 'POST',
      headers: { ...fanHeaders, 'Content-Type': 'application/json' },
      body: JSON.stringify({ handoff: 'x'.repeat(20_000) }),
    });
    expect(declared.status).toBe(413);
  });
});

describe('input', () => {
  it('answers 400 naming the bad filter, and asks the platform nothing', async () => {
    const before = platformRequests();
    for (const query of [
      'limit=101',
      'limit=0',
      'openAt[from]=2026-02-30T00:00:00Z',
      'closeAt[to]=2026-13-01T00:00:00Z',
      'orderBy=secret',
    ]) {
      const answer = await harness.call(`/api/polls?${query}`);
      expect(answer.status, query).toBe(400);
      const error = await errorOf(answer);
      expect(error.code).toBe('invalid_filter');
      expect(error.message).toMatch(/limit|openAt|closeAt|orderBy/);
    }
    expect(platformRequests()).toBe(before);
    expect(harness.logLines.filter((line) => line.includes('"level":"error"'))).toEqual([]);
  });
});

describe('a breaker per endpoint family and one 429 hold for every platform call', () => {
  it('respects a 429 on fans’ routes: one request reaches the platform, the rest wait out its Retry-After', async () => {
    const { cookie } = await signIn(harness);
    const poll = openRiversidePoll(
      ((await (await harness.call('/api/polls?limit=50')).json()) as { data: Poll[] }).data,
    );
    harness.sandbox.sandbox.state.faults.throttleNext(1, 60);
    const before = platformRequests();
    const answers = [];
    for (let index = 0; index < 20; index += 1)
      answers.push(await harness.call('/api/user/me', { cookie: cookie!, headers: fanHeaders }));
    expect(platformRequests() - before).toBe(1);
    for (const answer of answers) {
      expect(answer.status).toBe(503);
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    // A vote is held too: never sent.
    const vote = await castVote(harness, cookie!, poll.id, poll.answers[0]!.id);
    expect(vote.status).toBe(503);
    expect(platformRequests() - before).toBe(1);
    shift += 61_000;
    expect((await harness.call('/api/user/me', { cookie: cookie!, headers: fanHeaders })).status).toBe(200);
  });

  // Per family and instance, an outage of T s costs at most 3 failures, then one trial after holds of 1, 2, 4, 8, then
  // 10 s (each up to a quarter shorter, jitter): 60 s is at most 3 + 11 = 14 requests. Two families here (the public
  // list, the fan's /me): at most 28. The old single breaker sent 8, but held for up to 5 minutes after a return.
  it('sends a bounded number of requests through a 60 s outage (at most 14 per endpoint family), serves the cache, and recovers by itself', async () => {
    const { cookie } = await signIn(harness);
    expect((await harness.call('/api/polls?limit=5')).status).toBe(200);
    harness.sandbox.sandbox.state.faults.failNext(1_000_000, 503);
    const before = platformRequests();
    let cached = 0;
    // 60 s of the proxy's time, a reader and a fan every 100 ms.
    for (let tenth = 0; tenth < 600; tenth += 1) {
      shift += 100;
      const read = await harness.call('/api/polls?limit=5');
      if (read.status === 200) cached += 1;
      const fan = await harness.call('/api/user/me', { cookie: cookie!, headers: fanHeaders });
      expect([502, 503]).toContain(fan.status);
    }
    const sent = platformRequests() - before;
    expect(sent).toBeLessThanOrEqual(28);
    const perFamily = (prefix: string) =>
      harness.upstream.slice(before).filter((call) => call.url.pathname.startsWith(prefix)).length;
    expect(perFamily('/user/')).toBeLessThanOrEqual(14);
    expect(perFamily('/polls/')).toBeLessThanOrEqual(14);
    expect(cached).toBe(600);
    harness.sandbox.sandbox.state.faults.clear();
    shift += 5 * 60_000;
    await expect
      .poll(async () => (await harness.call('/api/user/me', { cookie: cookie!, headers: fanHeaders })).status)
      .toBe(200);
  }, 60_000);
});

describe('a slow platform', () => {
  it('serves a cached poll within 2 s while the platform takes 30 s, refreshing it in the background', async () => {
    expect((await harness.call('/api/polls?limit=7')).status).toBe(200);
    shift += 60_000;
    harness.sandbox.sandbox.state.faults.setLatency(30_000);
    const started = Date.now();
    const answer = await harness.call('/api/polls?limit=7');
    expect(answer.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(2500);
  });
});

describe('vote deadlines that nest inside the widget’s 10 s', () => {
  const samId = '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c02';
  const votesSent = (pollId: string) =>
    harness.upstream.filter(
      (call) => call.method === 'POST' && call.url.pathname.endsWith(`/poll/${pollId}/vote`),
    );

  /** A fan signed in, and an open Riverside poll they have not voted on yet. */
  const signInWithUnvotedPoll = async (username: string) => {
    const { cookie } = await signIn(harness, { username });
    const polls = (
      (await (
        await harness.call('/api/user/polls?limit=50', { cookie: cookie!, headers: fanHeaders })
      ).json()) as { data: Poll[] }
    ).data;
    return {
      cookie: cookie!,
      poll: openRiversidePoll(polls, { accept: (candidate) => candidate.userVote === false }),
    };
  };

  it('confirms a vote whose answer came too late by re-reading the fan’s poll, within 8 s, sent once', async () => {
    const { cookie, poll } = await signInWithUnvotedPoll('sam');
    const faults = harness.sandbox.sandbox.state.faults;
    const sentBefore = votesSent(poll.id).length;
    // The vote is taken after 5.6 s, past the proxy's 5.5 s for it; the re-read waits until the platform has it.
    faults.setLatency(5600);
    const samsVotes = () =>
      harness.sandbox.sandbox.state.polls.find(poll.id)?.votes.filter((v) => v.userId === samId) ?? [];
    harness.beforeUpstream = async (request) => {
      if (request.method === 'GET' && request.url.includes(`/user/poll/${poll.id}`)) {
        faults.setLatency(0);
        await waitUntil(() => samsVotes().length > 0, 'the platform to take the late vote', 5000, 20);
      }
    };
    const started = Date.now();
    const vote = await castVote(harness, cookie, poll.id, poll.answers[0]!.id);
    expect(vote.status).toBe(201);
    expect(Date.now() - started).toBeLessThan(9000);
    expect(votesSent(poll.id).length - sentBefore).toBe(1);
    expect(samsVotes()).toHaveLength(1);
  }, 20_000);

  it('answers within 8 s when the platform takes 30 s, saying the vote is in doubt, never sending it twice', async () => {
    const { cookie, poll } = await signInWithUnvotedPoll('kim');
    const sentBefore = votesSent(poll.id).length;
    harness.sandbox.sandbox.state.faults.setLatency(30_000);
    const started = Date.now();
    const vote = await castVote(harness, cookie, poll.id, poll.answers[0]!.id);
    expect(Date.now() - started).toBeLessThan(9000);
    expect(vote.status).toBe(502);
    expect((await errorOf(vote)).code).toBe('vote_uncertain');
    expect(votesSent(poll.id).length - sentBefore).toBe(1);
  }, 20_000);
});

describe('the platform budget', () => {
  it('lets fans vote through a flood of anonymous cache-busting reads, which cost at most the public budget', async () => {
    const budgeted = await startHarness({
      clientAddressHeader: 'X-Forwarded-For',
      publicReadsPerMinute: 100,
      publicMissesPerClientPerMinute: 5,
    });
    try {
      const isPollRead = (call: { method: string; url: URL }) =>
        call.method === 'GET' && call.url.pathname.endsWith('/polls');
      const statuses = new Map<number, number>();
      // 400 distinct queries from 200 addresses, two each.
      for (let index = 0; index < 400; index += 1) {
        const day = String(1 + (index % 28)).padStart(2, '0');
        const month = String(1 + (Math.floor(index / 28) % 12)).padStart(2, '0');
        const answer = await budgeted.call(
          `/api/polls?openAt[from]=2025-${month}-${day}T00:00:${String(index % 60).padStart(2, '0')}Z`,
          {
            headers: { 'X-Forwarded-For': `198.51.100.${index % 200}` },
          },
        );
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      }
      expect(budgeted.upstream.filter(isPollRead).length).toBeLessThanOrEqual(100);
      expect(statuses.get(503)).toBeGreaterThan(0);
      const { cookie } = await signIn(budgeted, { username: 'sam' });
      const polls = (
        (await (
          await budgeted.call('/api/user/polls?limit=50', { cookie: cookie!, headers: fanHeaders })
        ).json()) as { data: Poll[] }
      ).data;
      const poll = openRiversidePoll(polls, { accept: (candidate) => candidate.userVote === false });
      expect((await castVote(budgeted, cookie!, poll.id, poll.answers[0]!.id)).status).toBe(201);

      // One address busting the cache: its sixth distinct miss in a minute is refused.
      const own: number[] = [];
      for (let index = 0; index < 6; index += 1) {
        own.push(
          (
            await budgeted.call(`/api/polls?limit=${10 + index}`, {
              headers: { 'X-Forwarded-For': '203.0.113.9' },
            })
          ).status,
        );
      }
      expect(own.slice(0, 5).every((status) => status === 200 || status === 503)).toBe(true);
      expect(own[5]).toBe(429);
      // Free text is not for anonymous callers.
      expect((await budgeted.call('/api/polls?search=anything')).status).toBe(400);
    } finally {
      await budgeted.close();
    }
  }, 60_000);
});

describe('a client that hangs up', () => {
  it('is logged as a disconnect, not as an internal error', async () => {
    const { cookie } = await signIn(harness);
    const { port } = new URL(harness.proxy.url);
    const linesBefore = harness.logLines.length;
    await new Promise<void>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => {
        socket.write(
          [
            'POST /api/user/polls/00000000-0000-4000-8000-000000000000/vote HTTP/1.1',
            `Host: 127.0.0.1:${port}`,
            'Origin: http://127.0.0.1:4999',
            `Cookie: ${cookie!}`,
            'X-Fan-Polls-Request: 1',
            'Content-Type: application/json',
            'Content-Length: 1000',
            '',
            '{"answerId":',
          ].join('\r\n'),
        );
        setTimeout(() => {
          socket.destroy();
          resolve();
        }, 200);
      });
      socket.on('error', reject);
    });
    await expect
      .poll(() => harness.logLines.slice(linesBefore).some((line) => line.includes('client_disconnected')))
      .toBe(true);
    const lines = harness.logLines.slice(linesBefore);
    expect(lines.filter((line) => line.includes('"level":"error"'))).toEqual([]);
  });
});
