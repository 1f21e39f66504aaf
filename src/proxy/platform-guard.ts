import { answerWithText, type FetchLike } from '../platform/http.ts';
import { isRecord } from '../contracts/is-record.ts';
import { parseRetryAfter } from '../platform/retry-after.ts';
import type { ProxyLogger } from './logger.ts';

/** A hold shared by every instance (Redis), or none. */
export interface SharedHold {
  /** When the hold another instance set ends (ms since the epoch), if any. */
  read(): Promise<number | undefined>;
  write(until: number): Promise<void>;
}

export interface PlatformGuardOptions {
  readonly now: () => number;
  readonly logger: ProxyLogger;
  readonly shared?: SharedHold;
  /** Consecutive failures of one endpoint family (network, timeout, 5xx, a malformed 2xx) that open its breaker. */
  readonly failureThreshold?: number;
  /** The first hold of an opened breaker; each failed trial doubles it, up to `maxOpenMs`. */
  readonly openMs?: number;
  /** The longest hold of a breaker between two trials. */
  readonly maxOpenMs?: number;
  /** The longest 429 hold, whatever a `Retry-After` says. */
  readonly maxHoldMs?: number;
  /** How often the shared 429 hold is read again. */
  readonly sharedReadMs?: number;
  /** In [0, 1): the jitter of each breaker hold (tests pin it). */
  readonly random?: () => number;
  /** Given the shared hold's reads and writes, which go on after the call (Workers: the request's `waitUntil`). */
  readonly waitUntil?: (work: Promise<unknown>) => void;
}

/** Defaults of the guard, one place: the README's operations section and the tests state bounds from these. */
export const platformGuardDefaults = {
  failureThreshold: 3,
  openMs: 1000,
  maxOpenMs: 10_000,
  /** A hold is `(1 - jitter * r)` of its nominal length, r in [0, 1): instances do not retry in step. */
  jitter: 0.25,
  maxHoldMs: 5 * 60_000,
  sharedReadMs: 1000,
} as const;

/**
 * What one breaker guards: the token endpoint, and each family of resource routes. A family's failures open only its
 * own breaker, and only its own success closes it (the pitfall: a breaker that any endpoint's answer resets never
 * opens while the token endpoint is down and the poll routes are up).
 */
export type EndpointFamily =
  'token' | 'revoke' | 'oauth' | 'polls' | 'user-polls' | 'vote' | 'user' | 'survey' | 'other';

export function endpointFamily(url: URL, method: string): EndpointFamily {
  const path = url.pathname;
  if (path.endsWith('/oauth2/token')) return 'token';
  if (path.endsWith('/oauth2/revoke')) return 'revoke';
  if (path.includes('/oauth2/')) return 'oauth';
  const [api, , first] = path.split('/').filter((segment) => segment !== '');
  if (api === 'polls') {
    if (first !== 'user') return 'polls';
    return method === 'POST' && path.endsWith('/vote') ? 'vote' : 'user-polls';
  }
  if (api === 'user') return 'user';
  if (api === 'survey') return 'survey';
  return 'other';
}

export type HoldReason = 'throttled' | 'failing';

export interface BreakerState {
  readonly open: boolean;
  /** When the hold ends (ms since the epoch); a trial request may go then. */
  readonly until: number;
  readonly failures: number;
}

export interface PlatformGuard {
  readonly fetch: FetchLike;
  /** `open` while nothing may be sent (a 429 hold, or every breaker held), until when. */
  state(): { readonly open: boolean; readonly until: number; readonly reason: HoldReason | undefined };
  /** Each family's breaker that has failed since its last success. */
  breakers(): Readonly<Partial<Record<EndpointFamily, BreakerState>>>;
}

/** The header on the guard's own refusals: a request it holds never left the proxy. */
export const heldHeader = 'X-Fan-Polls-Held';
/** The `code` of the guard's own refusal body. */
const heldCode = 'held';

interface Breaker {
  failures: number;
  /** Failed trials since the breaker opened: the exponent of its next hold. */
  level: number;
  until: number;
  trialInFlight: boolean;
}

/**
 * Circuit breakers per endpoint family and one 429 hold, in front of the fetch every platform call shares (reads,
 * fans' routes, token calls). After the platform answered 429, nothing is sent until its `Retry-After` (capped), on
 * any route (the quota is the application's), and the hold is shared with every instance (Redis, read in the
 * background so that a stalled Redis never holds a request). After `failureThreshold` failures in a row of one
 * family (a network error, a timeout, a 5xx, or a 2xx whose body is not what the family answers), that family is
 * held for `openMs`, then one trial request decides: success closes it, failure holds it again for twice as long (up
 * to `maxOpenMs`), each hold shortened by a random jitter so that instances do not retry in step. While held, a call
 * gets at once a 429 with `Retry-After` and `X-Fan-Polls-Held`, which every caller turns into `throttled`: public reads
 * answer from the cache, fans get 503 with `Retry-After`, a vote is answered "not sent".
 */
export function createPlatformGuard(fetch: FetchLike, options: PlatformGuardOptions): PlatformGuard {
  const { now } = options;
  const hold = throttleHold(options);
  const breakers = endpointBreakers(options);

  const refused = (until: number, reason: HoldReason): Response => {
    const seconds = Math.max(1, Math.ceil((until - now()) / 1000));
    return new Response(JSON.stringify({ code: heldCode, message: 'Held by the proxy' }), {
      status: 429,
      headers: { 'Retry-After': String(seconds), 'Content-Type': 'application/json', [heldHeader]: reason },
    });
  };

  const guarded: FetchLike = async (input, init) => {
    hold.adoptShared();
    const request = input instanceof Request ? input : undefined;
    const url = new URL(request?.url ?? (input instanceof URL ? input.href : (input as string)));
    const method = (init?.method ?? request?.method ?? 'GET').toUpperCase();
    const family = endpointFamily(url, method);
    if (now() < hold.until()) return refused(hold.until(), 'throttled');
    const breaker = breakers.of(family);
    const open = breakers.isTripped(breaker);
    if (open && (now() < breaker.until || breaker.trialInFlight)) {
      return refused(Math.max(breaker.until, now() + 1000), 'failing');
    }
    const isTrial = open;
    if (isTrial) breaker.trialInFlight = true;
    try {
      const response = await readOnce(await fetch(input, init), family, method);
      if (response.status === 429) {
        const retryAt = parseRetryAfter(response.headers.get('Retry-After'), now())?.getTime();
        hold.throttle(Math.max(now() + 1000, retryAt ?? now() + 60_000));
      } else if (response.status >= 500) {
        breakers.failed(family, breaker, isTrial, `HTTP ${response.status}`);
      } else if (isMalformedSuccess(response, family, method)) {
        breakers.failed(family, breaker, isTrial, 'malformed');
      } else {
        breakers.succeeded(family, breaker);
      }
      return response;
    } catch (error) {
      // An abort the caller asked for is not the platform failing.
      if (!(init?.signal?.aborted === true && (error as Error).name === 'AbortError'))
        breakers.failed(family, breaker, isTrial, 'network');
      throw error;
    } finally {
      if (isTrial) breaker.trialInFlight = false;
    }
  };

  return {
    fetch: guarded,
    state: () => {
      const held = breakers.all().filter(([, breaker]) => breakers.isTripped(breaker));
      if (now() < hold.until()) return { open: true, until: hold.until(), reason: 'throttled' };
      const until = Math.max(0, ...held.map(([, breaker]) => breaker.until));
      return { open: now() < until, until, reason: held.length > 0 ? 'failing' : undefined };
    },
    breakers: () =>
      Object.fromEntries(
        breakers.all().map(([family, breaker]) => [
          family,
          {
            open: breakers.isTripped(breaker) && now() < breaker.until,
            until: breaker.until,
            failures: breaker.failures,
          },
        ]),
      ),
  };
}

/** The application's 429 hold: every route waits it out, and it is shared with every instance (read in the background). */
function throttleHold(options: PlatformGuardOptions) {
  const { now, logger, shared } = options;
  const waitUntil = options.waitUntil ?? (() => undefined);
  const maxHoldMs = options.maxHoldMs ?? platformGuardDefaults.maxHoldMs;
  const sharedReadMs = options.sharedReadMs ?? platformGuardDefaults.sharedReadMs;
  let throttledUntil = 0;
  let sharedCheckedAt = -Infinity;
  let sharedReading = false;
  return {
    until: () => throttledUntil,
    throttle(nextUntil: number): void {
      const capped = Math.min(nextUntil, now() + maxHoldMs);
      if (capped <= throttledUntil) return;
      throttledUntil = capped;
      logger.log('warn', 'platform_hold', {
        reason: 'throttled',
        seconds: Math.ceil((capped - now()) / 1000),
      });
      if (shared !== undefined) waitUntil(shared.write(capped).catch(() => undefined));
    },
    /** Adopts another instance's 429 hold; in the background, so a slow Redis never delays a platform call. */
    adoptShared(): void {
      if (shared === undefined || sharedReading || now() - sharedCheckedAt < sharedReadMs) return;
      sharedCheckedAt = now();
      sharedReading = true;
      const reading = shared
        .read()
        .then((remote) => {
          if (remote !== undefined && remote > throttledUntil)
            throttledUntil = Math.min(remote, now() + maxHoldMs);
        })
        .catch(() => undefined)
        .finally(() => {
          sharedReading = false;
        });
      waitUntil(reading);
    },
  };
}

/** One breaker per endpoint family: tripped by failures in a row, held with backoff and jitter, reset by its own success. */
function endpointBreakers(options: PlatformGuardOptions) {
  const { now, logger } = options;
  const failureThreshold = options.failureThreshold ?? platformGuardDefaults.failureThreshold;
  const baseOpenMs = options.openMs ?? platformGuardDefaults.openMs;
  const maxOpenMs = options.maxOpenMs ?? platformGuardDefaults.maxOpenMs;
  const random = options.random ?? Math.random;
  const breakers = new Map<EndpointFamily, Breaker>();
  return {
    of(family: EndpointFamily): Breaker {
      let breaker = breakers.get(family);
      if (breaker === undefined) {
        breaker = { failures: 0, level: 0, until: 0, trialInFlight: false };
        breakers.set(family, breaker);
      }
      return breaker;
    },
    all: () => [...breakers],
    isTripped: (breaker: Breaker) => breaker.failures >= failureThreshold,
    failed(family: EndpointFamily, breaker: Breaker, isTrial: boolean, why: string): void {
      breaker.failures += 1;
      if (isTrial) breaker.level += 1;
      else if (breaker.failures < failureThreshold) return;
      const nominal = Math.min(baseOpenMs * 2 ** breaker.level, maxOpenMs);
      const holdMs = Math.max(1, Math.round(nominal * (1 - platformGuardDefaults.jitter * random())));
      breaker.until = now() + holdMs;
      logger.log('warn', 'platform_hold', { reason: 'failing', family, why, ms: holdMs });
    },
    succeeded(family: EndpointFamily, breaker: Breaker): void {
      if (breaker.failures >= failureThreshold) logger.log('info', 'platform_recovered', { family });
      breaker.failures = 0;
      breaker.level = 0;
      breaker.until = 0;
    },
  };
}

/** A checked answer: its body read once, as text (undefined where the family's answers are not checked). */
type CheckedResponse = Response & { readonly bodyText?: string };

/**
 * The answers the guard checks (`isMalformedSuccess`) are read here once (reading a copy, `clone()`, tees the body's
 * stream, which cost a fan's read more than parsing it). A resource read goes on only to the platform client's
 * `readJsonBody`, which takes the text as it is (`answerWithText`: no second body stream). A token answer goes on to
 * oauth4webapi, which reads a Response's own body: it gets a fresh one with the same status, headers and body.
 */
async function readOnce(
  response: Response,
  family: EndpointFamily,
  method: string,
): Promise<CheckedResponse> {
  if (!checksBody(response, family, method)) return response;
  const text = await response.text();
  if (family !== 'token') return answerWithText(response, text);
  const rebuilt = new Response(text, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
  return Object.assign(rebuilt, { bodyText: text });
}

function checksBody(response: Response, family: EndpointFamily, method: string): boolean {
  const readsResource = method === 'GET' && !['token', 'revoke', 'oauth'].includes(family);
  return response.status >= 200 && response.status < 300 && (family === 'token' || readsResource);
}

/**
 * A 2xx whose body is not what the family answers counts as a failure (a platform answering garbage should open the
 * breaker, not keep it closed): a token answer without `access_token`, a resource read without `data`.
 */
function isMalformedSuccess(response: CheckedResponse, family: EndpointFamily, method: string): boolean {
  if (!checksBody(response, family, method)) return false;
  let body: unknown;
  try {
    body = JSON.parse(response.bodyText ?? '') as unknown;
  } catch {
    return true;
  }
  if (!isRecord(body)) return true;
  return family === 'token' ? typeof body.access_token !== 'string' : !('data' in body);
}
