import { describe, expect, it, vi } from 'vitest';
import { PlatformError } from './errors.ts';
import type { TokenSet } from './oauth.ts';
import { applicationTokenKeeper, TokenKeeper, userTokenKeeper } from './token-keeper.ts';

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('TokenKeeper', () => {
  it('reuses a token until the margin before expiry, then refreshes', async () => {
    let now = 0;
    let issued = 0;
    const keeper = new TokenKeeper({
      now: () => now,
      marginMs: 1000,
      obtain: () => {
        issued += 1;
        return Promise.resolve({ accessToken: `t${issued}`, expiresAt: now + 10_000 });
      },
    });
    expect(await keeper.token()).toBe('t1');
    now = 8_999;
    expect(await keeper.token()).toBe('t1');
    now = 9_000;
    expect(await keeper.token()).toBe('t2');
    expect(issued).toBe(2);
  });

  it('keeps a token without expires_in until it is refused', async () => {
    const obtain = vi.fn(() => Promise.resolve<TokenSet>({ accessToken: `t${obtain.mock.calls.length}` }));
    const keeper = new TokenKeeper({ obtain });
    expect(await keeper.token()).toBe('t1');
    expect(await keeper.token()).toBe('t1');
    expect(await keeper.invalidate('t1')).toBe(true);
    expect(await keeper.token()).toBe('t2');
  });

  it('runs one refresh however many callers wait', async () => {
    const gate = deferred<TokenSet>();
    const obtain = vi.fn(() => gate.promise);
    const keeper = new TokenKeeper({ obtain });
    const waiting = Array.from({ length: 20 }, () => keeper.token());
    gate.resolve({ accessToken: 'shared' });
    expect(await Promise.all(waiting)).toEqual(Array(20).fill('shared'));
    expect(obtain).toHaveBeenCalledTimes(1);
  });

  it('shares one failure among the waiters, remembers it for its backoff, and tries again after', async () => {
    let now = 0;
    const obtain = vi
      .fn<() => Promise<TokenSet>>()
      .mockRejectedValueOnce(new PlatformError('network', 'down'))
      .mockRejectedValueOnce(new PlatformError('network', 'down'))
      .mockResolvedValueOnce({ accessToken: 'back' });
    const keeper = new TokenKeeper({ obtain, now: () => now, random: () => 0 });
    const results = await Promise.allSettled([keeper.token(), keeper.token()]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    // Within the backoff (1 s, then 2 s): the same failure, no token request.
    now = 999;
    await expect(keeper.token()).rejects.toThrow('down');
    expect(obtain).toHaveBeenCalledTimes(1);
    now = 1000;
    await expect(keeper.token()).rejects.toThrow('down');
    now = 2999;
    await expect(keeper.token()).rejects.toThrow('down');
    expect(obtain).toHaveBeenCalledTimes(2);
    now = 3000;
    expect(await keeper.token()).toBe('back');
    expect(obtain).toHaveBeenCalledTimes(3);
  });

  it('serves a token inside its margin, not yet expired, while the refresh fails', async () => {
    let now = 0;
    const obtain = vi
      .fn<() => Promise<TokenSet>>()
      .mockRejectedValue(new PlatformError('network', 'token endpoint down'));
    const keeper = new TokenKeeper({
      obtain,
      now: () => now,
      marginMs: 60_000,
      initial: { accessToken: 'old', expiresAt: 100_000 },
    });
    now = 50_000;
    expect(await keeper.token()).toBe('old');
    expect(await keeper.token()).toBe('old');
    expect(obtain).toHaveBeenCalledTimes(1);
    now = 100_000;
    await expect(keeper.token()).rejects.toThrow('token endpoint down');
  });

  it('does not drop a newer token when an old one is reported refused', async () => {
    let issued = 0;
    const keeper = new TokenKeeper({
      obtain: () => Promise.resolve({ accessToken: `t${(issued += 1)}` }),
    });
    await keeper.token();
    await keeper.invalidate('t1');
    expect(await keeper.token()).toBe('t2');
    expect(await keeper.invalidate('t1')).toBe(true);
    expect(await keeper.token()).toBe('t2');
    expect(issued).toBe(2);
  });
});

describe('applicationTokenKeeper', () => {
  it('re-requests client credentials', async () => {
    const clientCredentials = vi.fn(() => Promise.resolve<TokenSet>({ accessToken: 'app' }));
    const keeper = applicationTokenKeeper({ clientCredentials });
    expect(await keeper.token()).toBe('app');
    expect(clientCredentials).toHaveBeenCalledTimes(1);
  });
});

describe('userTokenKeeper', () => {
  it('rotates the refresh token and hands every new pair to onTokens', async () => {
    let now = 0;
    const stored: TokenSet[] = [];
    const refresh = vi.fn((refreshToken: string) =>
      Promise.resolve<TokenSet>({
        accessToken: `a-${refreshToken}`,
        refreshToken: `${refreshToken}'`,
        expiresAt: now + 3_600_000,
      }),
    );
    const keeper = userTokenKeeper(refresh, {
      now: () => now,
      initial: { accessToken: 'a0', refreshToken: 'r', expiresAt: 3_600_000 },
      onTokens: (tokens) => {
        stored.push(tokens);
      },
    });
    expect(await keeper.token()).toBe('a0');
    now = 3_600_000;
    expect(await keeper.token()).toBe('a-r');
    now = 7_200_000;
    expect(await keeper.token()).toBe("a-r'");
    expect(refresh.mock.calls.map(([token]) => token)).toEqual(['r', "r'"]);
    expect(stored.map((tokens) => tokens.refreshToken)).toEqual(["r'", "r''"]);
  });

  it('keeps the old refresh token when the server does not rotate', async () => {
    const keeper = userTokenKeeper(() => Promise.resolve({ accessToken: 'new' }), {
      initial: { accessToken: 'old', refreshToken: 'r' },
    });
    await keeper.invalidate('old');
    expect(await keeper.token()).toBe('new');
    expect(keeper.tokens?.refreshToken).toBe('r');
  });

  it('a refused refresh token signs the fan out: invalid_token, tokens cleared, onSignedOut once', async () => {
    const onSignedOut = vi.fn();
    const keeper = userTokenKeeper(
      () => Promise.reject(new PlatformError('invalid_token', 'signed out', { oauthError: 'invalid_grant' })),
      { initial: { accessToken: 'a', refreshToken: 'r', expiresAt: 0 }, onSignedOut, now: () => 1 },
    );
    await expect(keeper.token()).rejects.toMatchObject({ code: 'invalid_token' });
    expect(keeper.tokens).toBeUndefined();
    expect(onSignedOut).toHaveBeenCalledTimes(1);
    expect(await keeper.invalidate('a')).toBe(false);
  });

  it('stays signed out when cleared while a refresh is in flight (sign-out wins; nothing is persisted)', async () => {
    const gate = deferred<TokenSet>();
    const onTokens = vi.fn();
    const keeper = userTokenKeeper(() => gate.promise, {
      initial: { accessToken: 'old', refreshToken: 'r1', expiresAt: 0 },
      now: () => 1,
      onTokens,
    });
    const waiting = keeper.token();
    keeper.clear();
    gate.resolve({ accessToken: 'CANARY-new', refreshToken: 'r2' });
    await expect(waiting).rejects.toMatchObject({ code: 'invalid_token' });
    expect(keeper.tokens).toBeUndefined();
    expect(onTokens).not.toHaveBeenCalled();
    await expect(keeper.token()).rejects.toMatchObject({ code: 'invalid_token' });
  });

  it('without tokens, is signed out', async () => {
    const keeper = userTokenKeeper(() => Promise.resolve({ accessToken: 'x' }));
    await expect(keeper.token()).rejects.toMatchObject({ code: 'invalid_token' });
  });

  it('a failing onTokens does not fail the caller', async () => {
    const keeper = userTokenKeeper(() => Promise.resolve({ accessToken: 'new', refreshToken: 'r2' }), {
      initial: { accessToken: 'old', refreshToken: 'r', expiresAt: 0 },
      now: () => 1,
      onTokens: () => Promise.reject(new Error('disk full')),
    });
    expect(await keeper.token()).toBe('new');
  });
});
