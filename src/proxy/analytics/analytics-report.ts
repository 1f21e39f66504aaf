import {
  analyticsEventKinds,
  analyticsGroups,
  analyticsMaxRangeDays,
  analyticsOtherValue,
  type AnalyticsCounts,
  type AnalyticsGroup,
  type AnalyticsReport,
  type AnalyticsRow,
} from '../../contracts/analytics-contract.ts';
import { isUuid } from '../../platform/query.ts';
import { ProxyError } from '../errors.ts';
import { dayOf, type CountedEntry } from './analytics-counter.ts';

const dayMs = 86_400_000;
/** The range when the query names none: the last 30 days, today included. */
const defaultRangeDays = 30;

/** A report's query, checked. */
export interface ReportQuery {
  readonly from: string;
  readonly to: string;
  readonly poll: string | undefined;
  readonly group: AnalyticsGroup | undefined;
  /** Every day from `from` to `to`. */
  readonly days: readonly string[];
}

/**
 * Reads `from`, `to` (UTC days, `YYYY-MM-DD`, both included; default the last 30 days), `poll` and `group`, or throws
 * the coded 400 that names what is wrong.
 */
export function readReportQuery(query: URLSearchParams, now: number): ReportQuery {
  const to = query.get('to') ?? dayOf(now);
  const from =
    query.get('from') ??
    dayOf(Date.parse(`${checkedDay(to, 'to')}T00:00:00Z`) - (defaultRangeDays - 1) * dayMs);
  const start = Date.parse(`${checkedDay(from, 'from')}T00:00:00Z`);
  const end = Date.parse(`${checkedDay(to, 'to')}T00:00:00Z`);
  if (end < start) throw new ProxyError('reversed_range', `to (${to}) is before from (${from}).`);
  const length = (end - start) / dayMs + 1;
  if (length > analyticsMaxRangeDays)
    throw new ProxyError(
      'range_too_long',
      `The range covers ${length} days; a report covers at most ${analyticsMaxRangeDays}.`,
    );
  const poll = query.get('poll') ?? undefined;
  if (poll !== undefined && !isUuid(poll)) throw new ProxyError('invalid_filter', 'poll must be a uuid.');
  const group = query.get('group') ?? undefined;
  if (group !== undefined && !(analyticsGroups as readonly string[]).includes(group))
    throw new ProxyError('unknown_group', `group must be one of ${analyticsGroups.join(', ')}.`);
  const days = Array.from({ length }, (_, index) => dayOf(start + index * dayMs));
  return { from, to, poll, group: group as AnalyticsGroup | undefined, days };
}

/** A day that exists in the calendar, as `YYYY-MM-DD`. */
function checkedDay(value: string, name: string): string {
  const time = /^\d{4}-\d{2}-\d{2}$/.test(value) ? Date.parse(`${value}T00:00:00Z`) : NaN;
  if (Number.isNaN(time) || dayOf(time) !== value)
    throw new ProxyError('invalid_date', `${name} must be a date (YYYY-MM-DD) that exists.`);
  return value;
}

/** The rows of `entries`: one per poll, and per the group's value when grouped, sorted; and their totals. */
export function buildReport(entries: readonly CountedEntry[], query: ReportQuery): AnalyticsReport {
  const rows = new Map<
    string,
    { poll: string | null; value?: string | null; counts: Record<string, number> }
  >();
  const totals = zeroCounts();
  for (const entry of entries) {
    const value = query.group === undefined ? undefined : groupValue(entry, query.group);
    const key = JSON.stringify([entry.poll, value ?? null]);
    let row = rows.get(key);
    if (row === undefined) {
      row = { poll: entry.poll, ...(value === undefined ? {} : { value }), counts: zeroCounts() };
      rows.set(key, row);
    }
    for (const kind of analyticsEventKinds) {
      row.counts[kind] = (row.counts[kind] ?? 0) + entry.counts[kind];
      totals[kind] = (totals[kind] ?? 0) + entry.counts[kind];
    }
  }
  const sorted = [...rows.values()]
    .map((row): AnalyticsRow => ({
      poll: row.poll,
      ...(row.value === undefined ? {} : { value: row.value }),
      ...(row.counts as AnalyticsCounts),
    }))
    .sort((a, b) => compare(a.poll, b.poll) || compare(a.value ?? null, b.value ?? null));
  return {
    from: query.from,
    to: query.to,
    poll: query.poll ?? null,
    group: query.group ?? null,
    rows: sorted,
    totals: totals as AnalyticsCounts,
  };
}

function groupValue(entry: CountedEntry, group: AnalyticsGroup): string | null {
  if (group === 'day') return entry.day;
  return entry.tracking === 'other' ? analyticsOtherValue : (entry.tracking[group] ?? null);
}

function zeroCounts(): Record<string, number> {
  return Object.fromEntries(analyticsEventKinds.map((kind) => [kind, 0]));
}

/** Nulls last, then text order. */
function compare(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a < b ? -1 : 1;
}

/**
 * The report as CSV (RFC 4180): a header, one line per row, then `total`. Values come from pages, so a value a
 * spreadsheet would read as a formula (`=`, `+`, `-`, `@`, tab, return) is prefixed with `'`.
 */
export function reportCsv(report: AnalyticsReport): string {
  const head = ['poll', ...(report.group === null ? [] : [report.group]), ...analyticsEventKinds];
  const line = (poll: string | null, value: string | null | undefined, counts: AnalyticsCounts) =>
    [
      cell(poll),
      ...(report.group === null ? [] : [cell(value ?? null)]),
      ...analyticsEventKinds.map((kind) => String(counts[kind])),
    ].join(',');
  return [
    head.join(','),
    ...report.rows.map((row) => line(row.poll, row.value, row)),
    line('total', report.group === null ? undefined : '', report.totals),
  ]
    .map((each) => `${each}\r\n`)
    .join('');
}

function cell(value: string | null): string {
  if (value === null) return '';
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}
