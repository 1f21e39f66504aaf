import { describe, expect, it } from 'vitest';
import { cardReturnKey, frameReturnKey } from './sign-in-return.ts';
import { takeSignInReturn, withSignInReturn } from './sign-in-return-fragment.ts';

describe('the sign-in marker in a URL fragment', () => {
  const page = 'https://www.club.example/match/12?tab=poll';

  it('is the only fragment of a page that had none, or comes after the page’s own', () => {
    expect(withSignInReturn(page, cardReturnKey, { handoff: 'abc-_1' })).toBe(
      `${page}#fan-polls-handoff=abc-_1`,
    );
    expect(withSignInReturn(`${page}#comments`, cardReturnKey, { error: 'access_denied' })).toBe(
      `${page}#comments&fan-polls-handoff-error=access_denied`,
    );
    expect(withSignInReturn(`${page}#`, frameReturnKey, { handoff: 'x' })).toBe(
      `${page}#fan-polls-frame-handoff=x`,
    );
  });

  it('replaces an older marker under the same key, and leaves another key’s', () => {
    const old = `${page}#a&fan-polls-handoff=old&fan-polls-handoff-error=x&fan-polls-frame-handoff=f`;
    expect(withSignInReturn(old, cardReturnKey, { handoff: 'new' })).toBe(
      `${page}#a&fan-polls-frame-handoff=f&fan-polls-handoff=new`,
    );
  });

  it('is taken out with the rest of the fragment kept, or nothing left', () => {
    expect(takeSignInReturn('#comments&fan-polls-handoff=abc&x=1', cardReturnKey)).toEqual({
      result: { handoff: 'abc' },
      rest: '#comments&x=1',
    });
    expect(takeSignInReturn('#fan-polls-handoff-error=access_denied', cardReturnKey)).toEqual({
      result: { error: 'access_denied' },
      rest: '',
    });
    expect(takeSignInReturn('#fan-polls-frame-handoff=f', cardReturnKey)).toBeUndefined();
    expect(takeSignInReturn('#fan-polls-handoff=f', frameReturnKey)).toBeUndefined();
    expect(takeSignInReturn('', cardReturnKey)).toBeUndefined();
    expect(takeSignInReturn('#fan-polls-handoffx=1', cardReturnKey)).toBeUndefined();
  });

  it('round-trips whatever the proxy writes', () => {
    for (const result of [
      { handoff: 'hY3k_9-Zq0aBcDeFgHiJkLmNoPqRsTuVwXyZ012345' },
      { error: 'sign_in_failed' },
    ]) {
      const url = new URL(withSignInReturn(`${page}#top`, cardReturnKey, result));
      expect(takeSignInReturn(url.hash, cardReturnKey)).toEqual({ result, rest: '#top' });
    }
  });

  it('keeps a value it cannot decode as it is (the widget’s check refuses it)', () => {
    expect(takeSignInReturn('#fan-polls-handoff=%E0%A4%A', cardReturnKey)?.result).toEqual({
      handoff: '%E0%A4%A',
    });
  });
});
