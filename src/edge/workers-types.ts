// The few Workers runtime types the edge entry uses (Hono has `ExecutionContext`), declared here rather than pulling @cloudflare/workers-types
// into the project's global types (they clash with the DOM's and Node's).

/** The SQL storage of a SQLite-backed Durable Object (`ctx.storage.sql`). */
export interface SqlStorage {
  exec(query: string, ...bindings: (string | number | null)[]): { toArray(): Record<string, unknown>[] };
}

/** `ctx.storage` of a Durable Object: SQL and its one alarm. */
export interface DurableObjectStorage {
  readonly sql: SqlStorage;
  getAlarm(): Promise<number | null>;
  setAlarm(scheduledTime: number): Promise<void>;
}

/** The `ctx` a Durable Object's constructor gets. */
export interface DurableObjectState {
  readonly storage: DurableObjectStorage;
  blockConcurrencyWhile<T>(callback: () => Promise<T>): Promise<T>;
}

/** A Durable Object namespace binding, as the edge entry forwards requests to one of its objects. */
export interface DurableObjectNamespace {
  idFromName(name: string): unknown;
  get(id: never): { fetch(request: Request): Promise<Response> };
}
