import { describe, expect, it } from 'vitest';
import { MemoryKeyValueStore } from './memory-key-value-store.ts';
import { SessionManager, sessionMemoryCaps } from './session-manager.ts';
import { defaultSessionOptions, type PendingSignIn } from './session-store.ts';
import { createTokenCipher } from './token-cipher.ts';
import { keyPrefix, type KeyValueStore } from './key-value-store.ts';

const origin = 'https://club.example';

function storeWith(overrides: Partial<typeof defaultSessionOptions> = {}) {
  let now = 1_000_000;
  const options = { ...defaultSessionOptions, ...overrides, now: () => now };
  const store = new SessionManager(
    new MemoryKeyValueStore(sessionMemoryCaps(options)),
    createTokenCipher(new Uint8Array(32)),
    () => Promise.reject(new Error('no refresh here')),
    options,
  );
  return {
    store,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

const pending = (state: string, browserId = `browser-${state}`): PendingSignIn => ({
  state,
  codeVerifier: `verifier-${state}`,
  openerOrigin: origin,
  browserId,
  handoff: false,
});

const signedIn = () => ({
  userId: 'fan',
  tokens: { accessToken: 'a', refreshToken: 'r' },
  signInOrigin: origin,
});

// The memory store's caps and sweeps, under the session manager: the rules every backend shares are in
// `key-value-store.conformance.ts`.
describe('SessionManager over the memory store', () => {
  it('keeps at most maxPendingSignIns sign-ins in progress, dropping the oldest', async () => {
    const { store } = storeWith({ maxPendingSignIns: 3 });
    for (const state of ['s1', 's2', 's3', 's4', 's5']) await store.addPending(pending(state));
    expect(await store.takePending('s1')).toBeUndefined();
    expect(await store.takePending('s2')).toBeUndefined();
    for (const state of ['s3', 's4', 's5'])
      expect((await store.takePending(state))?.codeVerifier).toBe(`verifier-${state}`);
  });

  it('sweeps expired sign-ins when a new one starts, so that old ones do not take the room of live ones', async () => {
    const { store, advance } = storeWith({ maxPendingSignIns: 2, pendingMs: 1000 });
    await store.addPending(pending('old'));
    advance(500);
    await store.addPending(pending('live'));
    advance(600);
    // 'old' has expired: it goes, and 'live' keeps its place under the cap of two.
    await store.addPending(pending('new'));
    expect((await store.takePending('live'))?.state).toBe('live');
    expect((await store.takePending('new'))?.state).toBe('new');
    expect(await store.takePending('old')).toBeUndefined();
  });

  it('finds the origin of a browser’s latest sign-in still in progress, and none once it expired', async () => {
    const { store, advance } = storeWith({ pendingMs: 1000 });
    await store.addPending({ ...pending('a', 'browser'), openerOrigin: 'https://one.example' });
    await store.addPending({ ...pending('b', 'browser'), openerOrigin: 'https://two.example' });
    await store.addPending({ ...pending('c', 'elsewhere'), openerOrigin: 'https://three.example' });
    expect(await store.pendingOriginOf('browser')).toBe('https://two.example');
    expect(await store.pendingOriginOf('nobody')).toBeUndefined();
    expect(await store.pendingOriginOf(undefined)).toBeUndefined();
    advance(1000);
    expect(await store.pendingOriginOf('browser')).toBeUndefined();
  });

  it('makes sessions only for signed-in fans, each under a fresh id, and ending one ends its copies', async () => {
    const { store } = storeWith();
    const first = await store.create(signedIn());
    const second = await store.create(signedIn());
    expect(first.id).not.toBe(second.id);
    expect((await store.find(first.id))?.userId).toBe('fan');
    const copy = await store.clone(first);
    expect(copy.id).not.toBe(first.id);
    await store.end(first);
    expect(await store.find(copy.id)).toBeUndefined();
    expect((await store.find(second.id))?.userId).toBe('fan');
  });

  it('evicts the least recently used session past the cap, not an active fan who signed in first', async () => {
    const { store, advance } = storeWith({ maxSessions: 3 });
    const first = await store.create(signedIn());
    advance(10);
    const second = await store.create(signedIn());
    advance(10);
    const copy = await store.clone(second);
    advance(10);
    await store.find(first.id);
    await store.create(signedIn());
    expect(await store.find(first.id)).toBeDefined();
    // The handoff copy counts against the cap like any session: the second sign-in went, the copy kept its place.
    expect(await store.find(second.id)).toBeUndefined();
    expect(await store.find(copy.id)).toBeDefined();
  });

  it('sweeps expired sessions without waiting for their fans to come back', async () => {
    const { store, advance } = storeWith({ idleMs: 1000 });
    for (let index = 0; index < 5; index += 1) await store.create(signedIn());
    expect(await store.count()).toBe(5);
    advance(61_000);
    await store.create(signedIn());
    expect(await store.count()).toBe(1);
  });

  it('reads a session and its tokens in one store read, and starts its idle time again at most once a minute', async () => {
    let now = 1_000_000;
    const memory = new MemoryKeyValueStore({ now: () => now });
    const calls: string[] = [];
    const counted = new Proxy(memory, {
      get: (target, name: keyof KeyValueStore) => {
        const method = target[name].bind(target) as (...args: unknown[]) => unknown;
        return (...args: unknown[]) => {
          calls.push(name);
          return method(...args);
        };
      },
    });
    const options = { ...defaultSessionOptions, idleMs: 10 * 60_000, now: () => now };
    const sessions = new SessionManager(counted, cipher, noRefresh, options);
    const session = await sessions.create(signedIn());
    calls.length = 0;
    expect((await sessions.find(session.id))?.tokens.tokens?.accessToken).toBe('a');
    expect(calls).toEqual(['getMany']);
    calls.length = 0;
    now += 61_000;
    expect(await sessions.find(session.id)).toBeDefined();
    expect(calls).toEqual(['getMany', 'set']);
    // Renewed at 61 s: the idle time now ends 10 minutes after that, not 10 minutes after the sign-in.
    now += 10 * 60_000 - 1000;
    expect(await sessions.find(session.id)).toBeDefined();
    now += 10 * 60_000;
    expect(await sessions.find(session.id)).toBeUndefined();
  });

  it('still finds a session signed in before ids named their token record (an id with no dot)', async () => {
    const memory = new MemoryKeyValueStore();
    const sessions = new SessionManager(memory, cipher, noRefresh, defaultSessionOptions);
    const record = { userId: 'fan', signInOrigin: origin, grant: 'old-grant', createdAt: Date.now() };
    const sealed = await cipher.seal(
      JSON.stringify({ accessToken: 'old-access' }),
      `${keyPrefix}tokens:old-grant`,
    );
    await memory.set('tokens:old-grant', sealed, 60_000);
    await memory.set('session:old-id', JSON.stringify(record), 60_000);
    const found = await sessions.find('old-id');
    expect(found?.tokens.tokens?.accessToken).toBe('old-access');
    await sessions.end(found!);
    expect(await memory.get('tokens:old-grant')).toBeUndefined();
    expect(await sessions.find('old-id')).toBeUndefined();
  });
});

const cipher = createTokenCipher(new Uint8Array(32));
const noRefresh = () => Promise.reject(new Error('no refresh here'));
