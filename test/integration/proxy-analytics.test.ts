// The club's analytics on two proxy instances sharing one real redis-server: page views report the cards they
// showed (beacons), fans sign in and vote with several campaigns through both instances, and the reports then show
// exactly what the sandbox recorded, per campaign. Replayed and flooded beacons stay within their bound; bad input,
// a missing or wrong token and a refused page's beacon are refused with their codes.
import { analyticsPaths } from '../../src/contracts/analytics-contract.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnalyticsReport, AnalyticsRow, SeenBeacon } from '../../src/contracts/analytics-contract.ts';
import { proxyRoutes, type ProxyErrorBody } from '../../src/contracts/proxy-contract.ts';
import type { Poll } from '../../src/platform/types.ts';
import { openRiversidePoll } from '../support/open-poll.ts';
import { startRedis, type TestRedis } from '../support/redis-server.ts';
import { waitUntil } from '../support/wait-until.ts';
import { extensionRedirectUri } from '../../src/local-defaults.ts';
import {
  extensionCode,
  extensionOrigin,
  fanHeaders,
  signIn,
  startHarness,
  type Harness,
} from './proxy-harness.ts';

const token = 'canary-analytics-token-for-tests';
const metricsToken = 'canary-metrics-token-for-tests';
const seenPerMinute = 10;
const samId = '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c02';
const today = new Date().toISOString().slice(0, 10);

let redis: TestRedis;
let first: Harness;
let second: Harness;
let poll: { id: string; answerId: string };
const otherPoll = crypto.randomUUID();

beforeAll(async () => {
  redis = await startRedis();
  first = await startHarness({
    redisUrl: redis.url,
    signInPerMinute: 100,
    analyticsToken: token,
    analyticsSeenPerMinute: seenPerMinute,
    clientAddressHeader: 'X-Forwarded-For',
    metricsToken: metricsToken,
  });
  second = await first.addInstance();
  const polls = ((await (await first.call('/api/polls?limit=50')).json()) as { data: Poll[] }).data;
  const open = openRiversidePoll(polls);
  poll = { id: open.id, answerId: open.answers[0]?.id ?? '' };
}, 30_000);

afterAll(async () => {
  await second.close();
  await first.close();
  await redis.close();
});

const pageView = () => crypto.randomUUID().replaceAll('-', '');

/** A page's beacon, from `address`, as `seen-beacons.ts` sends it (text/plain JSON, no credentials). */
const beacon = (harness: Harness, body: SeenBeacon, address: string, origin?: string | null) =>
  harness.call(analyticsPaths.cardsSeen, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'Content-Type': 'text/plain;charset=UTF-8', 'X-Forwarded-For': address },
    ...(origin === undefined ? {} : { origin }),
  });

const vote = (harness: Harness, cookie: string, campaign: string) =>
  harness.call(`${proxyRoutes.vote(poll.id)}?campaign=${campaign}&referrer=club-site`, {
    method: 'POST',
    cookie,
    headers: { ...fanHeaders, 'Content-Type': 'application/json' },
    body: JSON.stringify({ answerId: poll.answerId }),
  });

/**
 * The report's answer. On a loaded runner a Redis call can miss its 1 s deadline: the instance then answers
 * `state_unavailable` (503, `Retry-After`) until its next probe finds Redis again, and a client asks again, as this does.
 */
const report = (harness: Harness, query: string, format: 'json' | 'csv' = 'json') =>
  waitUntil(async () => {
    const answer = await harness.call(
      `${format === 'json' ? analyticsPaths.analyticsJson : analyticsPaths.analyticsCsv}?${query}`,
      { origin: null, headers: { Authorization: `Bearer ${token}` } },
    );
    return answer.status === 503 ? undefined : answer;
  }, 'an answer other than state_unavailable');

const rowsOf = async (harness: Harness, query: string): Promise<AnalyticsReport> =>
  (await (await report(harness, query)).json()) as AnalyticsReport;

const rowFor = (rows: readonly AnalyticsRow[], pollId: string | null, value: string | null) =>
  rows.find((row) => row.poll === pollId && row.value === value);

const codeOf = async (response: Response) => ((await response.json()) as ProxyErrorBody).error.code;

describe('analytics on two instances sharing Redis', () => {
  it('counts page views, sign-ins and votes per campaign as the sandbox recorded them', async () => {
    // Page views, each with the cards it showed, through both instances.
    const spring = { pageView: pageView(), cards: [{ poll: poll.id, tracking: { campaign: 'spring' } }] };
    const summer = {
      pageView: pageView(),
      cards: [
        { poll: poll.id, tracking: { campaign: 'summer' } },
        { poll: otherPoll, tracking: { campaign: 'summer' } },
      ],
    };
    const untracked = { pageView: pageView(), cards: [{ poll: poll.id }] };
    for (const [harness, body] of [
      [first, spring],
      [second, summer],
      [first, untracked],
    ] as const)
      expect((await beacon(harness, body, '203.0.113.1')).status).toBe(204);
    // The same page views again (a replay), through the other instance: nothing more.
    expect((await beacon(second, spring, '203.0.113.2')).status).toBe(204);
    expect((await beacon(first, summer, '203.0.113.2')).status).toBe(204);

    // Sign-ins: sam (spring) on the first, jo (summer) and a refusal of consent (summer) on the second.
    const sam = await signIn(first, { username: 'sam', tracking: { campaign: 'spring', poll: poll.id } });
    const jo = await signIn(second, { username: 'jo', tracking: { campaign: 'summer', poll: poll.id } });
    const denied = await signIn(second, {
      decision: 'deny',
      tracking: { campaign: 'summer', poll: poll.id },
    });
    expect([sam.status, jo.status]).toEqual([200, 200]);
    expect(denied.page).toContain('access_denied');

    // Votes: sam's is taken, sam's second and jo's (no fan tokens) are refused.
    expect((await vote(second, sam.cookie!, 'spring')).status).toBe(201);
    expect((await vote(first, sam.cookie!, 'spring')).status).toBe(409);
    expect((await vote(first, jo.cookie!, 'summer')).status).toBe(409);
    const recorded = first.sandbox.sandbox.state.polls
      .find(poll.id)
      ?.votes.filter((each) => each.userId === samId);
    expect(recorded).toHaveLength(1);

    const query = `from=${today}&to=${today}&group=campaign`;
    // Each instance writes its counts once a second: wait for as many as were made (3 cards shown, 3 sign-ins started,
    // 2 completed, 1 failed, 3 votes sent, 1 accepted, 2 refused), then check each.
    await waitUntil(async () => {
      const { totals } = await rowsOf(second, `${query}&poll=${poll.id}`);
      return Object.values(totals).reduce((sum, value) => sum + value, 0) >= 15;
    }, 'the sign-ins and votes counted');
    const counted = (await rowsOf(second, query)).rows;
    expect(rowFor(counted, poll.id, 'spring')).toMatchObject({
      shown: 1,
      signInStarted: 1,
      signedIn: 1,
      signInFailed: 0,
      voted: 2,
      accepted: recorded?.length,
      refused: 1,
    });
    expect(rowFor(counted, poll.id, 'summer')).toMatchObject({
      shown: 1,
      signInStarted: 2,
      signedIn: 1,
      signInFailed: 1,
      voted: 1,
      accepted: 0,
      refused: 1,
    });
    expect(rowFor(counted, poll.id, null)).toMatchObject({ shown: 1, signInStarted: 0, voted: 0 });
    expect(rowFor(counted, otherPoll, 'summer')).toMatchObject({ shown: 1, voted: 0 });

    // The same counts from the other instance, grouped by day and as CSV.
    const byDay = await rowsOf(first, `from=${today}&to=${today}&group=day&poll=${poll.id}`);
    expect(byDay.rows).toEqual([
      {
        poll: poll.id,
        value: today,
        shown: 3,
        signInStarted: 3,
        signedIn: 2,
        signInFailed: 1,
        voted: 3,
        accepted: 1,
        refused: 2,
      },
    ]);
    const csv = await (await report(first, `${query}&poll=${poll.id}`, 'csv')).text();
    expect(csv.split('\r\n')).toEqual([
      'poll,campaign,shown,signInStarted,signedIn,signInFailed,voted,accepted,refused',
      `${poll.id},spring,1,1,1,0,2,1,1`,
      `${poll.id},summer,1,2,1,1,1,0,1`,
      `${poll.id},,1,0,0,0,0,0,0`,
      'total,,3,3,2,1,3,1,2',
      '',
    ]);
  }, 60_000);

  it('counts a flood of new page views from one address at most the per-minute limit on each instance', async () => {
    const flood = (harness: Harness) =>
      Promise.all(
        Array.from({ length: 30 }, () =>
          beacon(
            harness,
            { pageView: pageView(), cards: [{ poll: otherPoll, tracking: { campaign: 'flood' } }] },
            '198.51.100.9',
          ),
        ),
      );
    const answers = [...(await flood(first)), ...(await flood(second))];
    expect(answers.filter((answer) => answer.status === 204)).toHaveLength(2 * seenPerMinute);
    const refused = answers.filter((answer) => answer.status === 429);
    expect(refused).toHaveLength(60 - 2 * seenPerMinute);
    expect(refused[0]?.headers.get('Retry-After')).toMatch(/^\d+$/);
    const shown = await waitUntil(async () => {
      const { rows } = await rowsOf(first, `from=${today}&to=${today}&group=campaign&poll=${otherPoll}`);
      const counted = rowFor(rows, otherPoll, 'flood')?.shown ?? 0;
      // Each instance writes its counts once a second: both have written once the sum reaches the bound.
      return counted >= 2 * seenPerMinute ? counted : undefined;
    }, 'the flood counted');
    expect(shown).toBe(2 * seenPerMinute);
    // Another address is not held back by the flood.
    const fresh = { pageView: pageView(), cards: [{ poll: otherPoll, tracking: { campaign: 'flood' } }] };
    expect((await beacon(first, fresh, '198.51.100.10')).status).toBe(204);
  });

  it('counts the extension’s code exchanges as sign-ins under no poll: taken, and refused when used twice', async () => {
    const untracked = async () =>
      rowFor((await rowsOf(first, `from=${today}&to=${today}&group=campaign`)).rows, null, null);
    const before = { signInStarted: 0, signedIn: 0, signInFailed: 0, ...(await untracked()) };
    const { code, codeVerifier } = await extensionCode(first);
    const exchange = () =>
      second.call('/extension/token', {
        method: 'POST',
        origin: extensionOrigin,
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ code, codeVerifier, redirectUri: extensionRedirectUri }),
      });
    expect((await exchange()).status).toBe(200);
    const refused = await exchange();
    expect(refused.status).toBe(400);
    expect(await codeOf(refused)).toBe('invalid_grant');
    const after = await waitUntil(async () => {
      const row = await untracked();
      return (row?.signInStarted ?? 0) >= before.signInStarted + 2 ? row : undefined;
    }, 'the extension’s sign-ins counted');
    expect(after).toMatchObject({
      signInStarted: before.signInStarted + 2,
      signedIn: before.signedIn + 1,
      signInFailed: before.signInFailed + 1,
    });
  });

  it('writes what an instance gathered when it stops gracefully', async () => {
    const third = await first.addInstance();
    const view = { pageView: pageView(), cards: [{ poll: otherPoll, tracking: { campaign: 'last-words' } }] };
    expect((await beacon(third, view, '203.0.113.77')).status).toBe(204);
    await third.close();
    // Read at once: the stop wrote the count, within its window.
    const { rows } = await rowsOf(first, `from=${today}&to=${today}&group=campaign&poll=${otherPoll}`);
    expect(rowFor(rows, otherPoll, 'last-words')?.shown).toBe(1);
  });

  it('refuses a beacon from a page it does not serve, and malformed beacons, counting nothing', async () => {
    const body = { pageView: pageView(), cards: [{ poll: otherPoll, tracking: { campaign: 'evil' } }] };
    const refused = await beacon(first, body, '203.0.113.50', 'https://evil.example');
    expect(refused.status).toBe(403);
    expect(await codeOf(refused)).toBe('origin_not_allowed');
    const noOrigin = await beacon(first, body, '203.0.113.50', null);
    expect(noOrigin.status).toBe(403);
    for (const bad of [
      { pageView: 'short', cards: [] },
      { pageView: pageView(), cards: [{ poll: 'not-a-uuid' }] },
    ]) {
      const answer = await beacon(first, bad, '203.0.113.50');
      expect(answer.status).toBe(400);
      expect(await codeOf(answer)).toBe('invalid_body');
    }
    const { rows } = await rowsOf(second, `from=${today}&to=${today}&group=campaign`);
    expect(rowFor(rows, otherPoll, 'evil')).toBeUndefined();
  });

  it('answers bad queries 400 with a code, and no or a wrong token 401 without logging it', async () => {
    for (const [query, code] of [
      ['from=2026-02-30&to=2026-03-01', 'invalid_date'],
      ['from=yesterday', 'invalid_date'],
      ['from=2026-03-02&to=2026-03-01', 'reversed_range'],
      ['from=2025-01-01&to=2026-03-01', 'range_too_long'],
      ['group=country', 'unknown_group'],
      ['poll=not-a-uuid', 'invalid_filter'],
    ] as const) {
      const answer = await report(first, query);
      expect(answer.status, query).toBe(400);
      expect(await codeOf(answer)).toBe(code);
      expect(answer.headers.get('Cache-Control')).toBe('private, no-store');
    }
    for (const authorization of [undefined, 'Bearer canary-wrong-token', `Basic ${token}`]) {
      for (const path of [analyticsPaths.analyticsJson, analyticsPaths.analyticsCsv]) {
        const answer = await second.call(path, {
          origin: null,
          headers: authorization === undefined ? {} : { Authorization: authorization },
        });
        expect(answer.status).toBe(401);
        expect(await codeOf(answer)).toBe('not_signed_in');
        expect(answer.headers.get('WWW-Authenticate')).toBe('Bearer');
      }
    }
    const good = await report(first, `from=${today}&to=${today}`);
    expect(good.status).toBe(200);
    expect(good.headers.get('Cache-Control')).toBe('private, no-store');
    expect(first.logLines.join('\n')).not.toContain('canary-wrong-token');
    expect(first.logLines.join('\n')).not.toContain(token);
  });

  it('serves the dashboard with a strict policy, and counts per event kind on /metrics', async () => {
    const page = await first.call(analyticsPaths.analyticsDashboard, { origin: null });
    expect(page.status).toBe(200);
    expect(page.headers.get('Content-Security-Policy')).toContain("script-src 'self'");
    expect(page.headers.get('Cache-Control')).toBe('private, no-store');
    expect(await page.text()).toContain('dashboard.js');
    expect((await first.call('/partner/analytics', { origin: null })).status).toBe(308);
    // Each instance counts what it did: together, every kind (and no poll or campaign label).
    const metrics = (
      await Promise.all(
        [first, second].map(async (harness) =>
          (
            await harness.call('/metrics', {
              origin: null,
              headers: { Authorization: `Bearer ${metricsToken}` },
            })
          ).text(),
        ),
      )
    ).join('\n');
    const series = metrics.split('\n').filter((line) => line.startsWith('fan_polls_analytics_events_total{'));
    expect([...new Set(series.map((line) => line.replace(/ \d+$/, '')))].sort()).toEqual(
      ['accepted', 'refused', 'shown', 'signInFailed', 'signInStarted', 'signedIn', 'voted']
        .map((kind) => `fan_polls_analytics_events_total{kind="${kind}"}`)
        .sort(),
    );
  });
});
