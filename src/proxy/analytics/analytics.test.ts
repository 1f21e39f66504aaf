// The analytics rules in one process, on the memory store: the bound on tracking combinations, the report's rows and
// CSV, the off switch, and the routes that do not exist without the token.
import { analyticsPaths } from '../../contracts/analytics-contract.ts';
import { describe, expect, it } from 'vitest';
import { analyticsOtherValue } from '../../contracts/analytics-contract.ts';
import { createProxyApp } from '../app.ts';
import { loadProxyConfig } from '../config.ts';
import { createJsonLogger } from '../logger.ts';
import { MemoryKeyValueStore } from '../state/memory-key-value-store.ts';
import { AnalyticsCounter, dayOf, maxCombinationsPerPollDay } from './analytics-counter.ts';
import { buildReport, readReportQuery, reportCsv } from './analytics-report.ts';

const pollId = '0b6c3f4e-7a1d-4c2b-9e8f-1a2b3c4d5e6f';
const now = Date.parse('2026-03-10T12:00:00Z');
const day = dayOf(now);
const sandbox = { FAN_POLLS_PRESET: 'sandbox' };
const quiet = createJsonLogger([], () => undefined);

describe('the analytics counter', () => {
  it('counts at most 1,000 tracking combinations per poll and day, the rest under (other)', async () => {
    const counter = new AnalyticsCounter(
      new MemoryKeyValueStore({ defaultMaxKeys: 1_000_000 }),
      400,
      () => now,
    );
    const extra = 25;
    for (let index = 0; index < maxCombinationsPerPollDay + extra; index += 1)
      counter.count(['shown'], { poll: pollId, tracking: { campaign: `c${index}` } });
    // A combination already counted stays itself; a new one past the bound goes to (other).
    counter.count(['shown'], { poll: pollId, tracking: { campaign: 'c0' } });
    counter.count(['voted'], { poll: undefined, tracking: {} });
    await counter.flush();
    const query = readReportQuery(new URLSearchParams({ from: day, to: day, group: 'campaign' }), now);
    const report = buildReport(await counter.read(query.days, undefined), query);
    const ofPoll = report.rows.filter((row) => row.poll === pollId);
    expect(ofPoll).toHaveLength(maxCombinationsPerPollDay + 1);
    expect(ofPoll.find((row) => row.value === 'c0')?.shown).toBe(2);
    expect(ofPoll.find((row) => row.value === analyticsOtherValue)?.shown).toBe(extra);
    expect(report.rows.find((row) => row.poll === null)).toMatchObject({ value: null, voted: 1 });
    expect(report.totals.shown).toBe(maxCombinationsPerPollDay + extra + 1);
  });

  it('keeps a day’s counts for its retention, then forgets them', async () => {
    let clock = now;
    const counter = new AnalyticsCounter(new MemoryKeyValueStore({ now: () => clock }), 2, () => clock);
    counter.count(['accepted'], { poll: pollId, tracking: { referrer: 'news' } });
    await counter.flush();
    clock = now + 2 * 86_400_000;
    expect(await counter.read([day], pollId)).toHaveLength(1);
    clock = now + 3 * 86_400_000;
    expect(await counter.read([day], pollId)).toEqual([]);
  });
});

describe('the report', () => {
  it('writes CSV a spreadsheet reads as text, never as a formula', () => {
    const query = readReportQuery(new URLSearchParams({ from: day, to: day, group: 'referrer' }), now);
    const counts = {
      shown: 1,
      signInStarted: 0,
      signedIn: 0,
      signInFailed: 0,
      voted: 0,
      accepted: 0,
      refused: 0,
    };
    const report = buildReport(
      [
        { day, poll: pollId, tracking: { referrer: '=HYPERLINK("x")' }, counts },
        { day, poll: pollId, tracking: { referrer: 'a,b' }, counts },
      ],
      query,
    );
    expect(reportCsv(report).split('\r\n').slice(1, 3)).toEqual([
      `${pollId},"'=HYPERLINK(""x"")",1,0,0,0,0,0,0`,
      `${pollId},"a,b",1,0,0,0,0,0,0`,
    ]);
  });

  it('takes the last 30 days when no range is given', () => {
    const query = readReportQuery(new URLSearchParams(), now);
    expect([query.from, query.to, query.days.length]).toEqual(['2026-02-09', day, 30]);
  });
});

describe('the analytics routes', () => {
  it('do not exist without the token; the beacon does not exist with analytics off', async () => {
    const { app } = createProxyApp(loadProxyConfig(sandbox), { logger: quiet });
    for (const path of [
      analyticsPaths.analyticsJson,
      analyticsPaths.analyticsCsv,
      analyticsPaths.analyticsDashboard,
    ])
      expect((await app.request(path)).status).toBe(404);
    const off = createProxyApp(loadProxyConfig({ ...sandbox, FAN_POLLS_ANALYTICS: 'false' }), {
      logger: quiet,
    });
    const beacon = await off.app.request(analyticsPaths.cardsSeen, {
      method: 'POST',
      headers: { Origin: off.runtime.config.publicUrl },
      body: JSON.stringify({ pageView: 'p'.repeat(16), cards: [{ poll: pollId }] }),
    });
    expect(beacon.status).toBe(404);
    expect(await off.runtime.analytics.read([dayOf(Date.now())], undefined)).toEqual([]);
  });
});
