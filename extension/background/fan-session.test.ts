import { describe, expect, it } from 'vitest';
import type { ExtensionTokenSet } from '../../src/contracts/proxy-contract.ts';
import { ExtensionError } from '../shared/extension-error.ts';
import { FakeAlarms, FakeStorageArea, fakeLocks } from '../testing/fake-browser.ts';
import { FanSession, refreshAlarmName } from './fan-session.ts';
import { TokenVault } from './token-vault.ts';

function setup(refresh: (token: string) => Promise<ExtensionTokenSet>) {
  const session = new FakeStorageArea();
  const persistent = new FakeStorageArea();
  const secrets = {
    get grant(): unknown {
      return persistent.items.get('refreshGrant');
    },
  };
  const alarms = new FakeAlarms();
  const clock = { now: 1_000_000 };
  const refreshCalls: string[] = [];
  const revoked: string[] = [];
  const fanSession = new FanSession({
    vault: new TokenVault(session, persistent),
    proxy: {
      refresh: async (token: string) => {
        refreshCalls.push(token);
        return refresh(token);
      },
      revoke: (token: string) => {
        revoked.push(token);
        return Promise.resolve();
      },
    },
    alarms,
    withLock: fakeLocks(),
    now: () => clock.now,
  });
  return { session, persistent, secrets, alarms, clock, refreshCalls, revoked, fanSession };
}

let counter = 0;
const rotating =
  (lifetime = 60) =>
  (): Promise<ExtensionTokenSet> => {
    counter += 1;
    return Promise.resolve({
      accessToken: `CANARY-a${counter}`,
      refreshToken: `CANARY-r${counter}`,
      expiresIn: lifetime,
    });
  };

describe('FanSession', () => {
  it('keeps the access token in session storage and the refresh token out of it', async () => {
    const t = setup(rotating());
    await t.fanSession.accept(
      { accessToken: 'CANARY-a0', refreshToken: 'CANARY-r0', expiresIn: 60 },
      'fan-1',
    );
    expect(t.session.dump()).toContain('CANARY-a0');
    expect(t.session.dump()).not.toContain('CANARY-r0');
    expect(t.secrets.grant).toEqual({ refreshToken: 'CANARY-r0', userId: 'fan-1' });
    expect(await t.fanSession.status()).toMatchObject({ signedIn: true, userId: 'fan-1' });
  });

  it('schedules the refresh alarm a margin before expiry', async () => {
    const t = setup(rotating());
    await t.fanSession.accept({ accessToken: 'a', refreshToken: 'r', expiresIn: 3600 });
    expect(t.alarms.scheduled.get(refreshAlarmName)).toBe(t.clock.now + 3600_000 - 120_000);
  });

  it('hands out the stored token before it is due and refreshes once it is', async () => {
    const t = setup(rotating());
    await t.fanSession.accept({ accessToken: 'CANARY-first', refreshToken: 'CANARY-r0', expiresIn: 60 });
    t.clock.now += 47_000;
    expect(await t.fanSession.accessToken()).toBe('CANARY-first');
    t.clock.now += 2_000; // 49 s of 60: inside the 12 s margin
    const next = await t.fanSession.accessToken();
    expect(next).not.toBe('CANARY-first');
    expect(t.refreshCalls).toEqual(['CANARY-r0']);
  });

  it('runs one refresh when many callers find the token due at once (rotation safe)', async () => {
    const t = setup(rotating());
    await t.fanSession.accept({ accessToken: 'old', refreshToken: 'CANARY-r0', expiresIn: 60 });
    t.clock.now += 59_000;
    const tokens = await Promise.all(Array.from({ length: 8 }, () => t.fanSession.accessToken()));
    expect(new Set(tokens).size).toBe(1);
    expect(t.refreshCalls).toHaveLength(1);
  });

  it('signs the fan out cleanly on invalid_grant', async () => {
    const t = setup(() => Promise.reject(new ExtensionError('invalid_grant', 'refused')));
    await t.fanSession.accept({ accessToken: 'CANARY-a', refreshToken: 'CANARY-r', expiresIn: 60 });
    t.clock.now += 61_000;
    await expect(t.fanSession.accessToken()).rejects.toMatchObject({ code: 'invalid_grant' });
    expect(t.session.dump()).not.toContain('CANARY');
    expect(t.secrets.grant).toBeUndefined();
    expect(t.alarms.scheduled.has(refreshAlarmName)).toBe(false);
    expect(await t.fanSession.status()).toEqual({ signedIn: false });
  });

  it('keeps the session and retries later when the proxy is unavailable', async () => {
    const t = setup(() => Promise.reject(new ExtensionError('unavailable', 'down')));
    await t.fanSession.accept({ accessToken: 'still-good', refreshToken: 'r', expiresIn: 60 });
    t.clock.now += 55_000;
    expect(await t.fanSession.accessToken()).toBe('still-good');
    expect(t.alarms.scheduled.get(refreshAlarmName)).toBe(t.clock.now + 30_000);
    t.clock.now += 10_000; // expired now
    await expect(t.fanSession.accessToken()).rejects.toMatchObject({ code: 'unavailable' });
    expect(t.secrets.grant).toMatchObject({ refreshToken: 'r' });
  });

  it('forces a refresh for a token the platform rejected, once', async () => {
    const t = setup(rotating());
    await t.fanSession.accept({ accessToken: 'rejected', refreshToken: 'r', expiresIn: 3600 });
    const [first, second] = await Promise.all([
      t.fanSession.refresh('rejected'),
      t.fanSession.refresh('rejected'),
    ]);
    expect(first.accessToken).not.toBe('rejected');
    expect(second.accessToken).toBe(first.accessToken);
    expect(t.refreshCalls).toHaveLength(1);
  });

  it('refreshes from the alarm and survives a restart of the worker (state is in storage only)', async () => {
    const t = setup(rotating());
    await t.fanSession.accept({ accessToken: 'a', refreshToken: 'r', expiresIn: 60 }, 'fan-2');
    const restarted = new FanSession({
      vault: new TokenVault(t.session, t.persistent),
      proxy: { refresh: rotating(), revoke: () => Promise.resolve() },
      alarms: t.alarms,
      withLock: fakeLocks(),
      now: () => t.clock.now,
    });
    t.clock.now += 50_000;
    await restarted.onRefreshAlarm();
    expect(await restarted.accessToken()).toMatch(/^CANARY-a/);
    expect(await restarted.status()).toMatchObject({ signedIn: true, userId: 'fan-2' });
  });

  it('signs out: local state first, then revokes both tokens', async () => {
    const t = setup(rotating());
    await t.fanSession.accept({ accessToken: 'CANARY-a', refreshToken: 'CANARY-r', expiresIn: 60 });
    await t.fanSession.signOut();
    expect(t.session.dump()).toBe('[]');
    expect(t.secrets.grant).toBeUndefined();
    expect(t.revoked).toEqual(['CANARY-r', 'CANARY-a']);
    await expect(t.fanSession.accessToken()).rejects.toMatchObject({ code: 'signed_out' });
  });

  it('has a session id that changes on sign-in, sign-out and a change of account, and not on refresh', async () => {
    const t = setup(rotating());
    expect((await t.fanSession.status()).sessionId).toBeUndefined();
    await t.fanSession.accept({ accessToken: 'CANARY-a', refreshToken: 'CANARY-r', expiresIn: 60 }, 'fan-a');
    const first = (await t.fanSession.status()).sessionId;
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    await t.fanSession.refresh('CANARY-a');
    await t.fanSession.rememberUserId('fan-a');
    expect((await t.fanSession.status()).sessionId).toBe(first);
    await t.fanSession.rememberUserId('fan-b');
    const switched = (await t.fanSession.status()).sessionId;
    expect(switched).not.toBe(first);
    await t.fanSession.signOut();
    expect((await t.fanSession.status()).sessionId).toBeUndefined();
    await t.fanSession.accept({ accessToken: 'CANARY-c', refreshToken: 'CANARY-s', expiresIn: 60 }, 'fan-a');
    expect([first, switched]).not.toContain((await t.fanSession.status()).sessionId);
  });
});
