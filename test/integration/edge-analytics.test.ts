// The club's analytics on the Workers runtime: the built edge bundle on workerd, its counts on Durable Objects. The
// same contract as on Node (`proxy-analytics.test.ts`): beacons counted once per page view, a sign-in and votes per
// campaign as the sandbox recorded them, the reports in JSON and CSV, the coded refusals.
import { analyticsPaths } from '../../src/contracts/analytics-contract.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnalyticsReport } from '../../src/contracts/analytics-contract.ts';
import { proxyRoutes, type ProxyErrorBody } from '../../src/contracts/proxy-contract.ts';
import type { Poll } from '../../src/platform/types.ts';
import { openRiversidePoll } from '../support/open-poll.ts';
import { waitUntil } from '../support/wait-until.ts';
import { buildEdgeBundle, startWorkerd, type RunningWorkerd } from '../support/workerd.ts';
import { edgeEnvironment, registerEdgeCallback } from './edge-harness.ts';
import { callAt, fanHeaders, signIn, startHarness, type Harness } from './proxy-harness.ts';

const token = 'canary-edge-analytics-token';
const today = new Date().toISOString().slice(0, 10);
const samId = '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c02';

let node: Harness;
let workerd: RunningWorkerd;
let edge: Harness['call'];

beforeAll(async () => {
  const bundle = await buildEdgeBundle();
  node = await startHarness();
  workerd = await startWorkerd(
    bundle,
    edgeEnvironment(node, { FAN_POLLS_ANALYTICS_TOKEN: token, FAN_POLLS_ANALYTICS_SEEN_PER_MINUTE: '5' }),
  );
  registerEdgeCallback(node, workerd);
  edge = callAt(workerd.url, []);
}, 60_000);

afterAll(async () => {
  await workerd.close();
  await node.close();
});

const report = (query: string, format: 'json' | 'csv' = 'json', authorization = `Bearer ${token}`) =>
  edge(`${format === 'json' ? analyticsPaths.analyticsJson : analyticsPaths.analyticsCsv}?${query}`, {
    origin: null,
    headers: { Authorization: authorization },
  });

const beacon = (pageView: string, pollId: string, campaign: string, address: string, origin?: string) =>
  edge(analyticsPaths.cardsSeen, {
    method: 'POST',
    body: JSON.stringify({ pageView, cards: [{ poll: pollId, tracking: { campaign } }] }),
    headers: { 'CF-Connecting-IP': address },
    ...(origin === undefined ? {} : { origin }),
  });

describe('analytics on workerd', () => {
  it('counts cards shown, a sign-in and votes per campaign, and reports them as JSON and CSV', async () => {
    const polls = ((await (await edge('/api/polls?limit=50')).json()) as { data: Poll[] }).data;
    const poll = openRiversidePoll(polls);
    const answerId = poll.answers[0]?.id ?? '';
    const view = crypto.randomUUID().replaceAll('-', '');
    expect((await beacon(view, poll.id, 'spring', '203.0.113.1')).status).toBe(204);
    expect((await beacon(view, poll.id, 'spring', '203.0.113.1')).status).toBe(204);
    const refused = await beacon(
      crypto.randomUUID(),
      poll.id,
      'spring',
      '203.0.113.1',
      'https://evil.example',
    );
    expect(refused.status).toBe(403);

    const sam = await signIn(
      { call: edge },
      { username: 'sam', tracking: { campaign: 'spring', poll: poll.id } },
    );
    expect(sam.status).toBe(200);
    const vote = () =>
      edge(`${proxyRoutes.vote(poll.id)}?campaign=spring`, {
        method: 'POST',
        cookie: sam.cookie ?? '',
        headers: { ...fanHeaders, 'Content-Type': 'application/json' },
        body: JSON.stringify({ answerId }),
      });
    expect((await vote()).status).toBe(201);
    expect((await vote()).status).toBe(409);
    const recorded = node.sandbox.sandbox.state.polls
      .find(poll.id)
      ?.votes.filter((each) => each.userId === samId);

    const query = `from=${today}&to=${today}&group=campaign&poll=${poll.id}`;
    await waitUntil(
      async () => ((await (await report(query)).json()) as AnalyticsReport).rows[0]?.refused === 1,
      'the counts on workerd',
    );
    // One card shown, one sign-in started and completed, two votes sent: the one the sandbox recorded, one refused.
    expect(recorded).toHaveLength(1);
    const csv = await (await report(query, 'csv')).text();
    expect(csv).toContain(`${poll.id},spring,1,1,1,0,2,1,1\r\n`);
  });

  it('refuses floods past the limit, bad queries with their code, and a wrong token', async () => {
    const pollId = crypto.randomUUID();
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        beacon(crypto.randomUUID().replaceAll('-', ''), pollId, 'flood', '198.51.100.9'),
      ),
    );
    expect(answers.filter((answer) => answer.status === 204)).toHaveLength(5);
    expect(answers.filter((answer) => answer.status === 429)).toHaveLength(3);
    const bad = await report('from=2026-02-30');
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as ProxyErrorBody).error.code).toBe('invalid_date');
    const wrong = await report(`from=${today}`, 'json', 'Bearer canary-wrong');
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('Cache-Control')).toBe('private, no-store');
    expect(workerd.output.join('\n')).not.toContain('canary-wrong');
  });
});
