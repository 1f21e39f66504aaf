import { describe, expect, it } from 'vitest';
import { isBridgeResponse, bridgeRequest } from './bridge-messages.ts';
import { isSignInResultMessage } from './sign-in-message.ts';

describe('sign-in result message', () => {
  it('accepts exactly the contract shapes', () => {
    expect(isSignInResultMessage({ type: 'fan-polls:sign-in', ok: true, userId: 'u1' })).toBe(true);
    expect(
      isSignInResultMessage({ type: 'fan-polls:sign-in', ok: false, error: 'access_denied', message: 'No' }),
    ).toBe(true);
  });

  it('accepts a handoff code of 20 to 128 URL-safe characters on a success only', () => {
    const ok = { type: 'fan-polls:sign-in', ok: true, userId: 'u1' };
    for (const handoff of ['a'.repeat(20), 'hY3k_9-Zq0aBcDeFgHiJkLmNoPqRsTuVwXyZ012345', 'b'.repeat(128)]) {
      expect(isSignInResultMessage({ ...ok, handoff })).toBe(true);
    }
    for (const handoff of [
      'a'.repeat(19),
      'b'.repeat(129),
      `${'c'.repeat(20)}=`,
      `${'d'.repeat(20)}\n`,
      7,
      null,
    ]) {
      expect(isSignInResultMessage({ ...ok, handoff })).toBe(false);
    }
    expect(
      isSignInResultMessage({
        type: 'fan-polls:sign-in',
        ok: false,
        error: 'x',
        message: 'y',
        handoff: 'a'.repeat(20),
      }),
    ).toBe(false);
  });

  it.each([
    null,
    'fan-polls:sign-in',
    { type: 'fan-polls:sign-in', ok: true },
    { type: 'fan-polls:sign-in', ok: true, userId: 'u1', accessToken: 'leak' },
    { type: 'fan-polls:sign-in', ok: 'true', userId: 'u1' },
    { type: 'other', ok: true, userId: 'u1' },
    { type: 'fan-polls:sign-in', ok: false, error: '', message: 'x' },
  ])('rejects %j', (data) => {
    expect(isSignInResultMessage(data)).toBe(false);
  });
});

describe('bridge answers', () => {
  const ok = {
    source: 'fan-polls-extension',
    version: 2,
    requestId: 'r1',
    outcome: { ok: true, result: { type: 'hello', version: 2 } },
  };

  it('builds requests with the page source and version', () => {
    expect(bridgeRequest('r1', { type: 'hello' })).toEqual({
      source: 'fan-polls-page',
      version: 2,
      requestId: 'r1',
      request: { type: 'hello' },
    });
  });

  it('accepts an answer to our request only', () => {
    expect(isBridgeResponse(ok, 'r1')).toBe(true);
    expect(isBridgeResponse(ok, 'r2')).toBe(false);
    expect(isBridgeResponse({ ...ok, source: 'fan-polls-page' }, 'r1')).toBe(false);
    expect(isBridgeResponse({ ...ok, version: 1 }, 'r1')).toBe(false);
    expect(isBridgeResponse({ ...ok, extra: 1 }, 'r1')).toBe(false);
    expect(
      isBridgeResponse(
        { ...ok, outcome: { ok: false, error: { code: 'not_signed_in', message: 'Sign in' } } },
        'r1',
      ),
    ).toBe(true);
  });
});
