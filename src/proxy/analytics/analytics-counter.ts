import {
  analyticsEventKinds,
  type AnalyticsCounts,
  type AnalyticsEventKind,
} from '../../contracts/analytics-contract.ts';
import {
  trackingParameterNames,
  type TrackingParameterName,
  type TrackingParameters,
} from '../../contracts/tracking.ts';
import type { KeyValueStore } from '../state/key-value-store.ts';
import { CounterBatch } from './counter-batch.ts';

const dayMs = 86_400_000;
/** Tracking combinations counted per poll and day; the rest count under one `(other)` combination. */
export const maxCombinationsPerPollDay = 1000;
/** Polls counted per day; the rest count under one `(other)` poll (a page may name any poll id). */
const maxPollsPerDay = 1000;
/** Known members of the day's lists (and counters) this instance remembers: a known combination costs no round trip. */
const rememberedMax = 50_000;
/** The poll segment of sign-ins that named no poll, and of polls past the day's bound. */
const noPoll = '-';
const over = 'other';

/** One day's counts of one poll and one tracking combination (`other`: the combinations past the bound). */
export interface CountedEntry {
  readonly day: string;
  /** Null: no poll named; `(other)` past the day's bound. */
  readonly poll: string | null;
  readonly tracking: TrackingParameters | 'other';
  readonly counts: AnalyticsCounts;
}

/** What an event is counted under. */
export interface CountedUnder {
  readonly poll?: string | undefined;
  readonly tracking: TrackingParameters;
}

/** What the counter hands its writes and admissions to: they go on beside the requests that counted. */
export type Background = (work: Promise<void>) => void;

export interface AnalyticsCounterOptions {
  /** How long counts wait to be written together (`CounterBatch`'s window); 0 (the default): the next turn. */
  readonly batchMs?: number;
  /** Given each write and each admission of a new member; by default a failure is dropped. */
  readonly background?: Background;
}

/**
 * The analytics rules over the shared key-value store: counters per UTC day, poll and tracking combination, each
 * added to atomically (`incrementMany`, written together by a `CounterBatch`) and expiring with its day's retention;
 * at most `maxCombinationsPerPollDay` combinations per poll and day (the rest under `(other)`) and `maxPollsPerDay`
 * polls per day. The members of a day (its polls, a poll's combinations) are listed in the store beside their
 * counters, so that a report reads them without a scan. A known combination costs no round trip of its own: its
 * count joins the batch at once. Keys (`analytics…:<day>:…`) hold a day, a poll id, a hash of the tracking values
 * and counts, nothing of a fan.
 */
export class AnalyticsCounter {
  readonly #store: KeyValueStore;
  readonly #retentionDays: number;
  readonly #now: () => number;
  readonly #background: Background;
  /** `<scope>|<member key>` -> admitted to its list (true) or counted under `other` (false). */
  readonly #known = new Map<string, boolean>();
  /** `<scope>|<member key>` -> its admission, while it runs. */
  readonly #admitted = new Map<string, Promise<boolean>>();
  /** `<day>|<poll>|<combination>` -> the keys' part before the kind, once admitted. */
  readonly #counters = new Map<string, string>();
  /** Counts waiting for their combination's admission (then for their write, `written`). */
  readonly #admitting = new Set<Promise<{ written: Promise<void> }>>();
  readonly #batch: CounterBatch;
  /** The day of the last count, as a day number and `YYYY-MM-DD`. */
  #today = { number: Number.NaN, day: '' };

  constructor(
    store: KeyValueStore,
    retentionDays: number,
    now: () => number,
    options: AnalyticsCounterOptions = {},
  ) {
    this.#store = store;
    this.#retentionDays = retentionDays;
    this.#now = now;
    this.#background =
      options.background ??
      ((work) => {
        work.catch(() => undefined);
      });
    this.#batch = new CounterBatch(store, options.batchMs ?? 0, this.#background);
  }

  /** Adds one of each of `kinds` for today under `under`, written with the batch (`flush` to wait for it). */
  count(kinds: readonly AnalyticsEventKind[], under: CountedUnder): void {
    const now = this.#now();
    const number = Math.floor(now / dayMs);
    if (number !== this.#today.number) this.#today = { number, day: dayOf(now) };
    const { day } = this.#today;
    // Until the end of the day's retention.
    const ttlMs = (number + this.#retentionDays + 1) * dayMs - now;
    const poll = under.poll ?? noPoll;
    const combination = JSON.stringify(trackingParameterNames.map((name) => under.tracking[name] ?? null));
    const remembered = `${day}|${poll}|${combination}`;
    const known = this.#counters.get(remembered);
    if (known !== undefined) {
      void this.#batch.add(known, kinds, ttlMs);
      return;
    }
    const admitted = this.#countersOf(day, poll, combination, ttlMs).then((counters) => {
      if (this.#counters.size >= rememberedMax) this.#counters.clear();
      this.#counters.set(remembered, counters);
      return { written: this.#batch.add(counters, kinds, ttlMs) };
    });
    this.#admitting.add(admitted);
    const done = () => this.#admitting.delete(admitted);
    admitted.then(done, done);
    // Until its write is done: on Workers, the request that counted keeps the write's timer alive. The write's
    // failure is its own, logged where the write was handed over.
    this.#background(admitted.then(({ written }) => written.catch(() => undefined)));
  }

  /** Answers once every count made so far is written (a graceful stop; a test before it reads). */
  async flush(): Promise<void> {
    await Promise.allSettled(this.#admitting);
    await this.#batch.flush();
  }

  /** `analytics:<day>:<poll or other>:<combination's hash or other>`, the bounds applied. */
  async #countersOf(day: string, poll: string, combination: string, ttlMs: number): Promise<string> {
    const pollAdmitted = await this.#admit(`polls:${day}`, poll, poll, maxPollsPerDay, ttlMs);
    const pollKey = pollAdmitted ? poll : over;
    const hash = await hashOf(combination);
    const admitted = await this.#admit(
      `combos:${day}:${pollKey}`,
      combination,
      hash,
      maxCombinationsPerPollDay,
      ttlMs,
    );
    return countersKey(day, pollKey, admitted ? hash : over);
  }

  /** Every counted entry of `days`, of one poll or of all. */
  async read(days: readonly string[], poll: string | undefined): Promise<CountedEntry[]> {
    const entries: CountedEntry[] = [];
    // A few days at a time: each day is a handful of round trips.
    for (let start = 0; start < days.length; start += 8) {
      const batch = days.slice(start, start + 8);
      for (const dayEntries of await Promise.all(batch.map((day) => this.#readDay(day, poll))))
        entries.push(...dayEntries);
    }
    return entries;
  }

  async #readDay(day: string, poll: string | undefined): Promise<CountedEntry[]> {
    const polls =
      poll === undefined ? (await this.#members(`polls:${day}`, maxPollsPerDay)).map(([key]) => key) : [poll];
    const perPoll = await Promise.all(polls.map((pollKey) => this.#readPoll(day, pollKey)));
    return perPoll.flat();
  }

  async #readPoll(day: string, pollKey: string): Promise<CountedEntry[]> {
    const combos = await this.#members(`combos:${day}:${pollKey}`, maxCombinationsPerPollDay);
    const keys = combos.flatMap(([hash]) =>
      analyticsEventKinds.map((kind) => `${countersKey(day, pollKey, hash)}:${kind}`),
    );
    const values = await this.#store.getMany(keys);
    const pollOut = pollKey === noPoll ? null : pollKey === over ? '(other)' : pollKey;
    const entries: CountedEntry[] = [];
    combos.forEach(([hash, combination], index) => {
      const counts = Object.fromEntries(
        analyticsEventKinds.map((kind, at) => [
          kind,
          Number(values[index * analyticsEventKinds.length + at] ?? 0) || 0,
        ]),
      ) as unknown as AnalyticsCounts;
      if (analyticsEventKinds.every((kind) => counts[kind] === 0)) return;
      entries.push({
        day,
        poll: pollOut,
        tracking: hash === over ? 'other' : trackingOf(combination),
        counts,
      });
    });
    return entries;
  }

  /**
   * Whether `memberKey` is (or now becomes) one of the at most `max` members of `scope`'s list. The first instance to
   * meet a member takes a number (an atomic increment); the verdict is written once (`absent`), so every instance
   * agrees on it. A request that loses that race takes the winner's verdict (its number stays unused: the list has a
   * hole, and the bound holds).
   */
  #admit(scope: string, member: string, memberKey: string, max: number, ttlMs: number): Promise<boolean> {
    const remembered = `${scope}|${memberKey}`;
    const known = this.#known.get(remembered);
    if (known !== undefined) return Promise.resolve(known);
    // One admission of a member at a time on this instance: concurrent first counts share it.
    let admitting = this.#admitted.get(remembered);
    if (admitting === undefined) {
      admitting = this.#decide(scope, member, memberKey, max, ttlMs);
      this.#admitted.set(remembered, admitting);
      admitting.then(
        (verdict) => {
          this.#admitted.delete(remembered);
          if (this.#known.size >= rememberedMax) this.#known.clear();
          this.#known.set(remembered, verdict);
        },
        () => this.#admitted.delete(remembered),
      );
    }
    return admitting;
  }

  async #decide(
    scope: string,
    member: string,
    memberKey: string,
    max: number,
    ttlMs: number,
  ): Promise<boolean> {
    const verdictKey = `analytics-member:${scope}:${memberKey}`;
    let verdict = await this.#store.get(verdictKey);
    if (verdict === undefined) {
      const number = await this.#store.increment(`analytics-members:${scope}`, 1, ttlMs);
      const mine = number <= max ? 'in' : 'out';
      if (await this.#store.set(verdictKey, mine, ttlMs, 'absent')) {
        verdict = mine;
        if (mine === 'in')
          await this.#store.set(
            `analytics-list:${scope}:${number}`,
            JSON.stringify([memberKey, member]),
            ttlMs,
          );
      } else verdict = (await this.#store.get(verdictKey)) ?? mine;
    }
    return verdict === 'in';
  }

  /** `[member key, member]` of `scope`'s list, and `[other, '']` when members were turned away. */
  async #members(scope: string, max: number): Promise<(readonly [string, string])[]> {
    const taken = Number(await this.#store.get(`analytics-members:${scope}`)) || 0;
    const numbers = Array.from({ length: Math.min(taken, max) }, (_, index) => index + 1);
    const listed = await this.#store.getMany(numbers.map((number) => `analytics-list:${scope}:${number}`));
    const members: (readonly [string, string])[] = [];
    for (const value of listed) {
      if (value === undefined) continue;
      const [key, member] = JSON.parse(value) as [string, string];
      members.push([key, member]);
    }
    // Every counter of `other` is read: the increments past the bound all count there.
    if (taken > members.length) members.push([over, '']);
    return members;
  }
}

/** `YYYY-MM-DD` of `time`, in UTC. */
export function dayOf(time: number): string {
  return new Date(time).toISOString().slice(0, 10);
}

/** The keys of one day, poll and combination's counters, before `:<kind>`. */
const countersKey = (day: string, poll: string, combination: string): string =>
  `analytics:${day}:${poll}:${combination}`;

function trackingOf(combination: string): TrackingParameters {
  const values = JSON.parse(combination) as (string | null)[];
  const tracking: { [Name in TrackingParameterName]?: string } = {};
  trackingParameterNames.forEach((name, index) => {
    const value = values[index];
    if (typeof value === 'string') tracking[name] = value;
  });
  return tracking;
}

/** A short SHA-256 of the combination's values: its keys stay short whatever the values. */
async function hashOf(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  return Array.from(digest.subarray(0, 12), (byte) => byte.toString(16).padStart(2, '0')).join('');
}
