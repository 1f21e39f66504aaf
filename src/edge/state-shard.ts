import type { ShardAnswer, ShardRequest } from '../proxy/state/durable-object-protocol.ts';
import type { DurableObjectState, SqlStorage } from './workers-types.ts';

/** How often expired keys are swept while any are held (reads never see them in between). */
const sweepEveryMs = 60_000;

/**
 * One shard of the proxy's shared state: a Durable Object (SQLite-backed) holding keys with an expiry time. Workers
 * run one object's requests one at a time and every operation here is synchronous SQL, so each is atomic: of two
 * `take`s of one key exactly one gets the value, of two `set ... absent` exactly one writes. Expired keys are never
 * answered (every query compares the expiry with now) and an alarm deletes them every minute while keys are held.
 */
export class StateShard {
  readonly #state: DurableObjectState;
  readonly #sql: SqlStorage;
  readonly #now: () => number;
  #alarmSet = false;

  /** Workers pass the object's state and env; `now` is the clock expiries are read on (a test's own clock). */
  constructor(state: DurableObjectState, _env?: unknown, now: () => number = () => Date.now()) {
    this.#state = state;
    this.#now = now;
    this.#sql = state.storage.sql;
    this.#sql.exec(
      'CREATE TABLE IF NOT EXISTS entries (key TEXT PRIMARY KEY, value TEXT NOT NULL, expires_at INTEGER NOT NULL)',
    );
  }

  async fetch(request: Request): Promise<Response> {
    const ask = (await request.json()) as ShardRequest;
    const answer = this.#answer(ask, this.#now());
    if (ask.op === 'set' || ask.op === 'hit' || ask.op === 'increment' || ask.op === 'incrementMany')
      await this.#sweepLater();
    return Response.json(answer);
  }

  async alarm(): Promise<void> {
    this.#sql.exec('DELETE FROM entries WHERE expires_at <= ?', this.#now());
    this.#alarmSet = false;
    const left = this.#sql.exec('SELECT COUNT(*) AS n FROM entries').toArray()[0]?.n;
    if (typeof left === 'number' && left > 0) await this.#sweepLater();
  }

  #answer(ask: ShardRequest, now: number): ShardAnswer {
    switch (ask.op) {
      case 'get':
        return { ...this.#live(ask.key, now) };
      case 'set': {
        const exists = this.#live(ask.key, now).value !== undefined;
        if ((ask.only === 'absent' && exists) || (ask.only === 'present' && !exists))
          return { written: false };
        this.#write(ask.key, ask.value, now + ask.ttlMs);
        return { written: true };
      }
      case 'take': {
        const live = this.#live(ask.key, now);
        this.#sql.exec('DELETE FROM entries WHERE key = ?', ask.key);
        return live;
      }
      case 'delete': {
        if (ask.ifValue === undefined) this.#sql.exec('DELETE FROM entries WHERE key = ?', ask.key);
        else this.#sql.exec('DELETE FROM entries WHERE key = ? AND value = ?', ask.key, ask.ifValue);
        return {};
      }
      case 'count': {
        // Keys of the namespace `session` are `session:...`, all between `session:` and `session;`.
        const rows = this.#sql
          .exec(
            'SELECT COUNT(*) AS n FROM entries WHERE key > ? AND key < ? AND expires_at > ?',
            `${ask.namespace}:`,
            `${ask.namespace};`,
            now,
          )
          .toArray();
        return { count: Number(rows[0]?.n ?? 0) };
      }
      case 'dump':
        return {
          values: this.#sql
            .exec('SELECT value FROM entries')
            .toArray()
            .map((row) => String(row.value)),
        };
      case 'increment':
        return { count: this.#increment(ask, now) };
      case 'incrementMany':
        return { counts: ask.counters.map((counter) => this.#increment(counter, now)) };
      case 'hit': {
        const row = this.#sql
          .exec('SELECT value, expires_at FROM entries WHERE key = ? AND expires_at > ?', ask.key, now)
          .toArray()[0];
        const count = row === undefined ? 1 : Number(row.value) + 1;
        const expiresAt = row === undefined ? now + ask.windowMs : Number(row.expires_at);
        this.#write(ask.key, String(count), expiresAt);
        return { count, resetInMs: expiresAt - now };
      }
    }
  }

  /** Adds `by` to the counter; a new (or expired) one expires `ttlMs` from now, a live one keeps its expiry. */
  #increment(counter: { key: string; by: number; ttlMs: number }, now: number): number {
    const row = this.#sql
      .exec('SELECT value, expires_at FROM entries WHERE key = ? AND expires_at > ?', counter.key, now)
      .toArray()[0];
    const count = (row === undefined ? 0 : Number(row.value) || 0) + counter.by;
    this.#write(counter.key, String(count), row === undefined ? now + counter.ttlMs : Number(row.expires_at));
    return count;
  }

  #live(key: string, now: number): { value?: string } {
    const row = this.#sql
      .exec('SELECT value FROM entries WHERE key = ? AND expires_at > ?', key, now)
      .toArray()[0];
    return row === undefined ? {} : { value: String(row.value) };
  }

  #write(key: string, value: string, expiresAt: number): void {
    this.#sql.exec(
      'INSERT INTO entries (key, value, expires_at) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at',
      key,
      value,
      expiresAt,
    );
  }

  async #sweepLater(): Promise<void> {
    if (this.#alarmSet) return;
    this.#alarmSet = true;
    if ((await this.#state.storage.getAlarm()) === null)
      await this.#state.storage.setAlarm(Date.now() + sweepEveryMs);
  }
}
