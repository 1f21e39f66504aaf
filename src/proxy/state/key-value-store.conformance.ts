// One conformance suite for every `KeyValueStore` backend, and for the session manager's rules over it (as
// oauth2-proxy's pkg/sessions/tests runs against each of its stores): expiry, single use under concurrency, the
// lock, the handoff copy, one refresh across instances, and tokens sealed at rest. Time passes on the backend's clock:
// a test clock moves on at once (memory, the state shard on workerd); Redis's expiry is the server's own clock, so
// its suite waits real time, with short lifetimes.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TokenSet } from '../../platform/oauth.ts';
import type { KeyValueStore } from './key-value-store.ts';
import { SessionManager } from './session-manager.ts';
import { defaultSessionOptions, type SessionStoreOptions } from './session-store.ts';
import { sleep, tryLock } from './store-lock.ts';
import { createTokenCipher } from './token-cipher.ts';

export interface StoreUnderTest {
  readonly store: KeyValueStore;
  /** Every value as the backend holds it (what a dump of it would show). */
  rawValues(): Promise<string[]>;
  close(): Promise<void>;
  /** The clock the backend reads expiries on; without one, real time (a server's own clock). */
  readonly clock?: StoreClock;
}

export interface StoreClock {
  now(): number;
  /** Resolves once `ms` have passed on this clock. */
  pass(ms: number): Promise<void>;
}

const realTime: StoreClock = { now: () => Date.now(), pass: (ms) => sleep(ms) };

/** A clock that moves only when told: `pass` moves it on at once. */
export function manualStoreClock(start = Date.now()): StoreClock {
  let now = start;
  return {
    now: () => now,
    pass: (ms) => {
      now += ms;
      return Promise.resolve();
    },
  };
}

const origin = 'https://club.example';
const cipher = createTokenCipher(crypto.getRandomValues(new Uint8Array(32)));

/** `describe`s the store's contract and the session rules over it; `open` gives a fresh, empty store per test. */
export function describeKeyValueStore(name: string, open: () => Promise<StoreUnderTest>): void {
  describe(`${name}: the key-value store and the session rules over it`, () => {
    const fixture = openPerTest(open);
    describeStoreContract(fixture);
    describeSessionLifetimes(fixture);
    describeSessionSharing(fixture);
  });
}

/** The store under test, opened fresh before each test and closed after it. */
interface PerTest {
  current: StoreUnderTest;
}

function openPerTest(open: () => Promise<StoreUnderTest>): PerTest {
  const fixture = {} as PerTest;
  beforeEach(async () => {
    fixture.current = await open();
  });
  afterEach(async () => {
    await fixture.current.close();
  });
  return fixture;
}

/** What every backend's methods promise: expiry, conditional writes, reads of several keys, takes, locks, counters. */
function describeStoreContract(fixture: PerTest): void {
  describe('the store', () => {
    let store: KeyValueStore;
    let clock: StoreClock;
    beforeEach(() => {
      store = fixture.current.store;
      clock = fixture.current.clock ?? realTime;
    });

    it('expires a value after its time to live, and a conditional write writes only when it should', async () => {
      expect(await store.set('test:a', 'one', 400)).toBe(true);
      expect(await store.get('test:a')).toBe('one');
      expect(await store.set('test:a', 'two', 400, 'absent')).toBe(false);
      expect(await store.set('test:b', 'two', 400, 'present')).toBe(false);
      expect(await store.get('test:b')).toBeUndefined();
      expect(await store.set('test:a', 'three', 400, 'present')).toBe(true);
      expect(await store.get('test:a')).toBe('three');
      await clock.pass(500);
      expect(await store.get('test:a')).toBeUndefined();
      expect(await store.set('test:a', 'four', 400, 'absent')).toBe(true);
    });

    it('reads several keys at once, in their order, with nothing for an absent or expired one', async () => {
      await store.set('test:short', 'gone soon', 800);
      await store.set('other:long', 'kept', 10_000);
      expect(await store.getMany(['other:long', 'test:missing', 'test:short'])).toEqual([
        'kept',
        undefined,
        'gone soon',
      ]);
      await clock.pass(900);
      expect(await store.getMany(['test:short', 'other:long'])).toEqual([undefined, 'kept']);
    });

    it('gives a value to exactly one of many concurrent takers', async () => {
      await store.set('test:once', 'value', 10_000);
      const taken = await Promise.all(Array.from({ length: 20 }, () => store.take('test:once')));
      expect(taken.filter((value) => value === 'value')).toHaveLength(1);
      expect(await store.get('test:once')).toBeUndefined();
    });

    it('adds every concurrent increment, keeps a counter’s first expiry, and starts an expired one again', async () => {
      const values = await Promise.all(
        Array.from({ length: 20 }, () => store.increment('test:count', 1, 1500)),
      );
      expect([...values].sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, index) => index + 1));
      // A later increment with a long lifetime does not move the expiry the counter was made with.
      expect(await store.increment('test:count', 5, 600_000)).toBe(25);
      expect(await store.get('test:count')).toBe('25');
      expect(await store.increment('other:count', 2, 600_000)).toBe(2);
      expect(await eventually(clock, async () => (await store.get('test:count')) === undefined)).toBe(true);
      expect(await store.increment('test:count', 3, 1500)).toBe(3);
      expect(await store.get('other:count')).toBe('2');
    });

    it('adds several counters in one step: every concurrent step counts, each counter keeps its own expiry', async () => {
      expect(await store.increment('test:old', 10, 1500)).toBe(10);
      const steps = await Promise.all(
        Array.from({ length: 10 }, () =>
          store.incrementMany([
            { key: 'test:old', by: 1, ttlMs: 600_000 },
            { key: 'other:new', by: 2, ttlMs: 600_000 },
            { key: 'test:old', by: 1, ttlMs: 600_000 },
            { key: 'session:counted', by: 1, ttlMs: 600_000 },
          ]),
        ),
      );
      const olds = steps.map(([old]) => old ?? 0).sort((a, b) => a - b);
      expect(olds).toEqual(Array.from({ length: 10 }, (_, index) => 11 + 2 * index));
      expect(steps.every((step) => step.length === 4 && step[2] === (step[0] ?? 0) + 1)).toBe(true);
      expect(await store.getMany(['test:old', 'other:new', 'session:counted'])).toEqual(['30', '20', '10']);
      expect(await store.count('session')).toBe(1);
      expect(await store.incrementMany([])).toEqual([]);
      // The counter made with 1.5 s ends then; the ones made by the step keep theirs.
      expect(await eventually(clock, async () => (await store.get('test:old')) === undefined)).toBe(true);
      expect(await store.getMany(['other:new', 'session:counted'])).toEqual(['20', '10']);
    });

    it('locks for one holder at a time, releases only its own lock, and frees a dead holder’s by expiry', async () => {
      const attempts = await Promise.all(Array.from({ length: 10 }, () => tryLock(store, 'lock:test', 500)));
      const held = attempts.filter((release) => release !== undefined);
      expect(held).toHaveLength(1);
      await store.delete('lock:test', 'not the holder’s value');
      expect(await tryLock(store, 'lock:test', 500)).toBeUndefined();
      await held[0]?.();
      const next = await tryLock(store, 'lock:test', 400);
      expect(next).toBeDefined();
      await clock.pass(500);
      expect(await tryLock(store, 'lock:test', 400)).toBeDefined();
    });
  });
}

/** Whether `condition` holds within 5 s of `clock`, asked every 100 ms: waits on the store's state. */
async function eventually(clock: StoreClock, condition: () => Promise<boolean>): Promise<boolean> {
  for (let tries = 0; tries < 50; tries += 1) {
    if (await condition()) return true;
    await clock.pass(100);
  }
  return false;
}

/** Session managers over the store under test (fresh per test) and its clock, with the refreshes they made. */
function sessionRulesOver(fixture: PerTest) {
  const refreshes: string[] = [];
  const clock = (): StoreClock => fixture.current.clock ?? realTime;
  return {
    refreshes,
    get under(): StoreUnderTest {
      return fixture.current;
    },
    get clock(): StoreClock {
      return clock();
    },
    managerWith: (overrides: Partial<SessionStoreOptions> = {}) =>
      new SessionManager(
        fixture.current.store,
        cipher,
        async (refreshToken) => {
          refreshes.push(refreshToken);
          await sleep(30);
          return { accessToken: `access-after-${refreshToken}`, expiresAt: clock().now() + 3_600_000 };
        },
        { ...defaultSessionOptions, now: () => clock().now(), ...overrides },
      ),
  };
}

/** A signed-in fan's session as the sign-in creates it. */
function signedIn(tokens: TokenSet = { accessToken: 'access-1', refreshToken: 'refresh-1' }) {
  return { userId: 'fan', tokens, signInOrigin: origin };
}

/** How long sessions, sign-in states and handoff codes live, and that each code is taken once. */
function describeSessionLifetimes(fixture: PerTest): void {
  describe('the session rules: lifetimes', () => {
    const rules = sessionRulesOver(fixture);

    it('ends a session unused for its idle time, and a used one at its absolute end', async () => {
      const { clock, managerWith } = rules;
      // Margins of 800 ms or more wherever a late timer could turn the answer: on real time, the steps' lateness adds
      // up, and a 2-core machine running two test files beside other work makes each step late by hundreds of ms.
      const sessions = managerWith({ idleMs: 2000, absoluteMs: 4000 });
      const idle = await sessions.create(signedIn());
      const used = await sessions.create(signedIn());
      for (let step = 0; step < 2; step += 1) {
        await clock.pass(800);
        expect(await sessions.find(used.id)).toBeDefined();
      }
      await clock.pass(800);
      expect(await sessions.find(idle.id)).toBeUndefined();
      expect(await sessions.find(used.id)).toBeDefined();
      await clock.pass(800);
      expect(await sessions.find(used.id)).toBeDefined();
      await clock.pass(1200);
      // Used every 800 ms, so never idle; but 4400 ms old.
      expect(await sessions.find(used.id)).toBeUndefined();
    });

    it('takes a sign-in state and a handoff code once under concurrency, and not at all once expired', async () => {
      const { clock, managerWith } = rules;
      const sessions = managerWith({ pendingMs: 500, handoffMs: 500 });
      await sessions.addPending({
        state: 'state-1',
        codeVerifier: 'verifier-1',
        openerOrigin: origin,
        browserId: 'browser-1',
        handoff: true,
      });
      expect(await sessions.pendingOriginOf('browser-1')).toBe(origin);
      const pending = await Promise.all(Array.from({ length: 10 }, () => sessions.takePending('state-1')));
      expect(pending.filter((taken) => taken?.codeVerifier === 'verifier-1')).toHaveLength(1);

      const session = await sessions.create(signedIn());
      const code = await sessions.addHandoff(session.id, origin);
      const handoffs = await Promise.all(Array.from({ length: 10 }, () => sessions.takeHandoff(code)));
      expect(handoffs.filter((taken) => taken?.sessionId === session.id)).toHaveLength(1);

      const late = await sessions.addHandoff(session.id, origin);
      await sessions.addPending({
        state: 'state-2',
        codeVerifier: 'verifier-2',
        openerOrigin: origin,
        browserId: 'browser-2',
        handoff: false,
      });
      await clock.pass(600);
      expect(await sessions.takeHandoff(late)).toBeUndefined();
      expect(await sessions.takePending('state-2')).toBeUndefined();
      expect(await sessions.pendingOriginOf('browser-2')).toBeUndefined();
    });
  });
}

/** Copies of a session, one refresh for everyone, and nothing readable at rest. */
function describeSessionSharing(fixture: PerTest): void {
  describe('the session rules: copies, refreshes and rest', () => {
    const rules = sessionRulesOver(fixture);

    it('hands a session to a copy that shares its tokens: a refresh in one is the other’s, ending one ends both', async () => {
      const { clock, managerWith } = rules;
      const sessions = managerWith();
      const original = await sessions.create(
        signedIn({ accessToken: 'expired', refreshToken: 'clone-refresh', expiresAt: clock.now() - 1 }),
      );
      const copy = await sessions.clone(original);
      expect(copy.id).not.toBe(original.id);
      expect(copy.userId).toBe('fan');
      expect(await (await sessions.find(copy.id))?.tokens.token()).toBe('access-after-clone-refresh');
      expect((await sessions.find(original.id))?.tokens.tokens?.accessToken).toBe(
        'access-after-clone-refresh',
      );
      await sessions.end(original);
      expect(original.tokens.tokens).toBeUndefined();
      expect(await sessions.find(copy.id)).toBeUndefined();
      expect(await sessions.find(original.id)).toBeUndefined();
    });

    it('refreshes one session once when two instances and two requests on each need it at the same time', async () => {
      const { clock, refreshes, managerWith } = rules;
      const [first, second] = [managerWith(), managerWith()];
      const session = await first.create(
        signedIn({ accessToken: 'stale', refreshToken: 'shared-refresh', expiresAt: clock.now() - 1 }),
      );
      const before = refreshes.filter((token) => token === 'shared-refresh').length;
      const found = await Promise.all(
        [first, first, second, second].map((manager) => manager.find(session.id)),
      );
      const tokens = await Promise.all(
        found.map((each) => each?.tokens.token() ?? Promise.resolve(undefined)),
      );
      expect(new Set(tokens)).toEqual(new Set(['access-after-shared-refresh']));
      expect(refreshes.filter((token) => token === 'shared-refresh').length - before).toBe(1);
    });

    it('keeps no token, refresh token or PKCE verifier readable at rest', async () => {
      const { under, managerWith } = rules;
      const sessions = managerWith();
      const session = await sessions.create(
        signedIn({ accessToken: 'canary-access-token', refreshToken: 'canary-refresh-token' }),
      );
      await sessions.clone(session);
      await sessions.addPending({
        state: 'state-3',
        codeVerifier: 'canary-code-verifier',
        openerOrigin: origin,
        browserId: 'browser-3',
        handoff: false,
      });
      const code = await sessions.addHandoff(session.id, origin);
      const values = await under.rawValues();
      expect(values.length).toBeGreaterThanOrEqual(5);
      for (const value of values) {
        expect(value).not.toContain('canary-');
        expect(value).not.toContain(code);
      }
      expect((await sessions.find(session.id))?.tokens.tokens?.accessToken).toBe('canary-access-token');
    });
  });
}
