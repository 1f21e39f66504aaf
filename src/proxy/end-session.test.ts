import { describe, expect, it } from 'vitest';
import { PlatformError } from '../platform/errors.ts';
import type { TokenSet } from '../platform/oauth.ts';
import { userTokenKeeper } from '../platform/token-keeper.ts';
import { endSession } from './end-session.ts';
import type { LogLevel } from './logger.ts';
import type { Session } from './state/session-store.ts';

const pair: TokenSet = { accessToken: 'old-access', refreshToken: 'old-refresh' };

function setUp(revokeFails = false) {
  const session: Session = {
    id: 'session-1',
    userId: 'fan',
    tokens: userTokenKeeper(() => Promise.reject(new Error('no refresh here')), { initial: pair }),
    signInOrigin: 'https://club.example',
  };
  const deleted: string[] = [];
  const revoked: { token: string; stillHeld: boolean }[] = [];
  const logged: { level: LogLevel; event: string }[] = [];
  const deps = {
    sessions: {
      end: (ended: Session) => {
        ended.tokens.clear();
        deleted.push(ended.id);
        return Promise.resolve();
      },
    },
    revoke: (token: string) => {
      revoked.push({ token, stillHeld: session.tokens.tokens !== undefined });
      return revokeFails ? Promise.reject(new PlatformError('network', 'down')) : Promise.resolve();
    },
    logger: { log: (level: LogLevel, event: string) => logged.push({ level, event }) },
  };
  return { session, deps, deleted, revoked, logged };
}

describe('endSession', () => {
  it('forgets the tokens and the session first, then revokes both tokens', async () => {
    const { session, deps, deleted, revoked } = setUp();
    await endSession(deps, session);
    expect(session.tokens.tokens).toBeUndefined();
    expect(deleted).toEqual(['session-1']);
    expect(revoked).toEqual([
      { token: 'old-refresh', stillHeld: false },
      { token: 'old-access', stillHeld: false },
    ]);
  });

  it('revokes the old pair when a new sign-in brought different tokens', async () => {
    const { session, deps, revoked } = setUp();
    await endSession(deps, session, { accessToken: 'new-access', refreshToken: 'new-refresh' });
    expect(revoked.map((call) => call.token)).toEqual(['old-refresh', 'old-access']);
  });

  it('revokes nothing when the platform handed the same pair out again, which would end the new sign-in', async () => {
    const { session, deps, revoked, logged } = setUp();
    await endSession(deps, session, { accessToken: 'old-access', refreshToken: 'rotated-refresh' });
    expect(session.tokens.tokens).toBeUndefined();
    expect(revoked).toEqual([]);
    expect(logged).toEqual([{ level: 'warn', event: 'revoke_skipped' }]);
  });

  it('logs a failed revoke by its code and still tries the other token', async () => {
    const { session, deps, revoked, logged } = setUp(true);
    await endSession(deps, session);
    expect(revoked).toHaveLength(2);
    expect(logged).toEqual([
      { level: 'warn', event: 'revoke_failed' },
      { level: 'warn', event: 'revoke_failed' },
    ]);
  });
});
