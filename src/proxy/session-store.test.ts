import { describe, expect, it } from 'vitest';
import { userTokenKeeper } from '../platform/token-keeper.ts';
import { defaultSessionOptions, SessionStore, type PendingSignIn } from './session-store.ts';

const origin = 'https://club.example';

function storeWith(overrides: Partial<typeof defaultSessionOptions> = {}) {
  let now = 1_000_000;
  const store = new SessionStore({ ...defaultSessionOptions, ...overrides, now: () => now });
  return {
    store,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

const pending = (state: string, browserId = `browser-${state}`): Omit<PendingSignIn, 'createdAt'> => ({
  state,
  codeVerifier: `verifier-${state}`,
  openerOrigin: origin,
  browserId,
  handoff: false,
});

const signedIn = () => ({
  userId: 'fan',
  tokens: userTokenKeeper(() => Promise.reject(new Error('no refresh here')), {
    initial: { accessToken: 'a', refreshToken: 'r' },
  }),
  signInOrigin: origin,
});

describe('SessionStore', () => {
  it('keeps at most maxPendingSignIns sign-ins in progress, dropping the oldest', () => {
    const { store } = storeWith({ maxPendingSignIns: 3 });
    for (const state of ['s1', 's2', 's3', 's4', 's5']) store.addPending(pending(state));
    expect(store.takePending('s1')).toBeUndefined();
    expect(store.takePending('s2')).toBeUndefined();
    for (const state of ['s3', 's4', 's5'])
      expect(store.takePending(state)?.codeVerifier).toBe(`verifier-${state}`);
  });

  it('sweeps expired sign-ins when a new one starts, so that old ones do not take the room of live ones', () => {
    const { store, advance } = storeWith({ maxPendingSignIns: 2, pendingMs: 1000 });
    store.addPending(pending('old'));
    advance(500);
    store.addPending(pending('live'));
    advance(600);
    // 'old' has expired: it goes, and 'live' keeps its place under the cap of two.
    store.addPending(pending('new'));
    expect(store.takePending('live')?.state).toBe('live');
    expect(store.takePending('new')?.state).toBe('new');
    expect(store.takePending('old')).toBeUndefined();
  });

  it('finds the origin of a browser’s latest sign-in still in progress, and none once it expired', () => {
    const { store, advance } = storeWith({ pendingMs: 1000 });
    store.addPending({ ...pending('a', 'browser'), openerOrigin: 'https://one.example' });
    store.addPending({ ...pending('b', 'browser'), openerOrigin: 'https://two.example' });
    store.addPending({ ...pending('c', 'elsewhere'), openerOrigin: 'https://three.example' });
    expect(store.pendingOriginOf('browser')).toBe('https://two.example');
    expect(store.pendingOriginOf('nobody')).toBeUndefined();
    expect(store.pendingOriginOf(undefined)).toBeUndefined();
    advance(1000);
    expect(store.pendingOriginOf('browser')).toBeUndefined();
  });

  it('makes sessions only for signed-in fans, each under a fresh id, and copies share the tokens', () => {
    const { store } = storeWith();
    const first = store.create(signedIn());
    const second = store.create(signedIn());
    expect(first.id).not.toBe(second.id);
    expect(store.find(first.id)?.userId).toBe('fan');
    const copy = store.clone(first);
    expect(copy.id).not.toBe(first.id);
    first.tokens.clear();
    expect(store.find(copy.id)?.tokens.tokens).toBeUndefined();
  });
});
