import { Hono, type Context } from 'hono';
import type { Clock } from './clock.ts';
import { sandboxChoices } from './choices.ts';
import { jsonResponse, throttledResponse } from './api/gateway-errors.ts';

/** What the fault profile does to one request. */
export type FaultKind = 'none' | 'error' | 'throttle' | 'malformed' | 'drop';

export interface FaultSettings {
  /** Added to every request until cleared. */
  latencyMs: number;
  /** The next N requests answer `errorStatus` (a 5xx burst). */
  errorNext: number;
  errorStatus: number;
  /** The next N requests answer 429 with `Retry-After` this many seconds ahead (a 429 storm). */
  throttleNext: number;
  retryAfterSeconds: number;
  /** The next N responses keep their status but carry a cut-off JSON body. */
  malformNext: number;
  /** The next N requests lose their connection (socket destroyed; in-process: a TypeError as fetch throws). */
  dropNext: number;
}

/** Faults tests and partners switch on, applied by `withFaults` on both origins. Counted faults run in order. */
export class FaultProfile {
  #settings: FaultSettings = FaultProfile.none();

  static none(): FaultSettings {
    return {
      latencyMs: 0,
      errorNext: 0,
      errorStatus: sandboxChoices.faultErrorStatus,
      throttleNext: 0,
      retryAfterSeconds: sandboxChoices.faultRetryAfterSeconds,
      malformNext: 0,
      dropNext: 0,
    };
  }

  get settings(): Readonly<FaultSettings> {
    return { ...this.#settings };
  }

  /** Changes some settings; counts and durations are clamped to whole non-negative numbers. */
  set(changes: Partial<FaultSettings>): void {
    const next = { ...this.#settings };
    for (const key of Object.keys(changes) as (keyof FaultSettings)[]) {
      const value = changes[key];
      if (typeof value === 'number' && Number.isFinite(value)) next[key] = Math.max(0, Math.floor(value));
    }
    if (next.errorStatus < 500 || next.errorStatus > 599)
      throw new RangeError('errorStatus must be a 5xx status');
    this.#settings = next;
  }

  setLatency(ms: number): void {
    this.set({ latencyMs: ms });
  }

  failNext(count: number, status: number = sandboxChoices.faultErrorStatus): void {
    this.set({ errorNext: count, errorStatus: status });
  }

  throttleNext(count: number, retryAfterSeconds: number = sandboxChoices.faultRetryAfterSeconds): void {
    this.set({ throttleNext: count, retryAfterSeconds });
  }

  malformNext(count: number): void {
    this.set({ malformNext: count });
  }

  dropNext(count: number): void {
    this.set({ dropNext: count });
  }

  clear(): void {
    this.#settings = FaultProfile.none();
  }

  /** Takes the fault for the next request: drops first, then 5xx, 429, malformed bodies. */
  take(): FaultKind {
    const settings = this.#settings;
    for (const [counter, kind] of [
      ['dropNext', 'drop'],
      ['errorNext', 'error'],
      ['throttleNext', 'throttle'],
      ['malformNext', 'malformed'],
    ] as const) {
      if (settings[counter] > 0) {
        settings[counter] -= 1;
        return kind;
      }
    }
    return 'none';
  }
}

/** Thrown in-process when a fault drops the connection: the same error `fetch` throws on a reset. */
export class DroppedConnection extends TypeError {
  override readonly name = 'TypeError';
  readonly code = 'sandbox_dropped_connection';
  constructor() {
    super('fetch failed', { cause: new Error('The sandbox dropped the connection (fault profile).') });
  }
}

/**
 * Puts an origin behind the fault profile. Control routes (`/__sandbox/...`) are never faulted, so that tests can
 * always switch faults off again.
 */
export function withFaults(inner: Hono, faults: FaultProfile, clock: Clock): Hono {
  const outer = new Hono();
  outer.onError((error) => {
    throw error;
  });
  outer.all('*', async (c) => {
    const env: unknown = c.env;
    if (c.req.path.startsWith('/__sandbox/')) return inner.fetch(c.req.raw, env);
    const { latencyMs, errorStatus, retryAfterSeconds } = faults.settings;
    const fault = faults.take();
    if (latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, latencyMs));
    switch (fault) {
      case 'drop':
        destroySocket(c);
        throw new DroppedConnection();
      case 'error':
        return faultErrorResponse(errorStatus);
      case 'throttle':
        return throttledResponse(sandboxChoices.throttleCode, clock.now() + retryAfterSeconds * 1000);
      case 'malformed':
        return malformed(await inner.fetch(c.req.raw, env));
      case 'none':
        return inner.fetch(c.req.raw, env);
    }
  });
  return outer;
}

/** Over a real socket (@hono/node-server passes `incoming`), the client sees the connection reset. */
function destroySocket(c: Context): void {
  const env = c.env as { incoming?: { socket?: { destroy(): void } } } | undefined;
  env?.incoming?.socket?.destroy();
}

function faultErrorResponse(status: number): Response {
  if (status === 502 || status === 503) {
    return jsonResponse(status, {
      code: '101503',
      message: 'Runtime Error',
      description: 'Error connecting to the back end',
    });
  }
  if (status === 504) {
    return jsonResponse(status, { code: '101504', message: 'Runtime Error', description: 'Send timeout' });
  }
  return jsonResponse(status, {
    code: String(status),
    message: 'Internal Server Error',
    description: 'The sandbox simulated a backend failure (fault profile).',
  });
}

/** Same status and headers, a JSON body cut in half (never valid JSON). */
async function malformed(response: Response): Promise<Response> {
  const text = await response.text();
  const headers = new Headers(response.headers);
  headers.delete('Content-Length');
  headers.set('Content-Type', 'application/json; charset=UTF-8');
  const half = text.length > 2 ? text.slice(0, Math.floor(text.length / 2)) : '{"data":';
  const cut = parsesAsJson(half) ? `${half},` : half;
  return new Response(response.status === 204 ? null : cut, { status: response.status, headers });
}

function parsesAsJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
