import { describe, expect, it } from 'vitest';
import {
  frameSource,
  isFrameHello,
  readHostPageMessage,
  readHostSessionMessage,
  readHostVoteMessage,
  readFrameMessage,
} from './frame-messages.ts';

describe('frame messages', () => {
  it('takes the host page’s address (where a sign-in without a pop-up comes back to) only on the host’s origin', () => {
    const host = 'https://www.club.example';
    const page = `${host}/match/12?tab=poll#comments`;
    expect(readHostPageMessage({ source: frameSource.host, type: 'page', page }, host)).toBe(page);
    for (const bad of [
      { source: frameSource.host, type: 'page', page: 'https://evil.example/match' },
      { source: frameSource.host, type: 'page', page: 'javascript:alert(1)' },
      { source: frameSource.host, type: 'page', page: '/match/12' },
      { source: frameSource.host, type: 'page', page: `${host}/${'a'.repeat(2100)}` },
      { source: frameSource.host, type: 'page', page, token: 'x' },
      { source: frameSource.frame, type: 'page', page },
      { source: frameSource.host, type: 'page' },
    ])
      expect(readHostPageMessage(bad, host)).toBeUndefined();
  });

  it('passes a session hint either way with the proxy’s origin and nothing else', () => {
    const proxy = 'https://polls.club.example';
    expect(readFrameMessage({ source: frameSource.frame, type: 'session', proxy })).toEqual({
      source: frameSource.frame,
      type: 'session',
      proxy,
    });
    for (const bad of [
      { source: frameSource.frame, type: 'session', proxy, userId: 'fan' },
      { source: frameSource.frame, type: 'session' },
      { source: frameSource.frame, type: 'session', proxy: 'https://polls.club.example/path' },
      { source: frameSource.frame, type: 'session', proxy: 'javascript:alert(1)' },
    ])
      expect(readFrameMessage(bad)).toBeUndefined();
    expect(readHostSessionMessage({ source: frameSource.host, type: 'session', proxy })).toBe(proxy);
    expect(readHostSessionMessage({ source: frameSource.frame, type: 'session', proxy })).toBeUndefined();
    expect(
      readHostSessionMessage({ source: frameSource.host, type: 'session', proxy, token: 'x' }),
    ).toBeUndefined();
  });

  it('passes a vote hint either way with the proxy’s origin, the poll, the answer and its status only', () => {
    const hint = { proxy: 'https://polls.club.example', pollId: 'p1', answerId: 'a1', voteStatus: 'pending' };
    expect(readFrameMessage({ source: frameSource.frame, type: 'vote', hint })).toEqual({
      source: frameSource.frame,
      type: 'vote',
      hint,
    });
    expect(readHostVoteMessage({ source: frameSource.host, type: 'vote', hint })).toEqual(hint);
    const { voteStatus: _status, ...noStatus } = hint;
    expect(readHostVoteMessage({ source: frameSource.host, type: 'vote', hint: noStatus })).toEqual(noStatus);
    for (const bad of [
      { ...hint, userId: 'fan' },
      { ...hint, proxy: 'https://polls.club.example/api' },
      { ...hint, proxy: 'javascript:alert(1)' },
      { ...hint, answerId: '' },
      { ...hint, answerId: { id: 'a1' } },
      { ...hint, pollId: 'p'.repeat(101) },
      { ...hint, voteStatus: 7 },
      { proxy: hint.proxy, pollId: 'p1' },
    ]) {
      expect(readFrameMessage({ source: frameSource.frame, type: 'vote', hint: bad })).toBeUndefined();
      expect(readHostVoteMessage({ source: frameSource.host, type: 'vote', hint: bad })).toBeUndefined();
    }
    // The wrong side, or a flat message, or one with more fields: refused.
    expect(readHostVoteMessage({ source: frameSource.frame, type: 'vote', hint })).toBeUndefined();
    expect(readHostVoteMessage({ source: frameSource.host, type: 'vote', ...hint })).toBeUndefined();
    expect(readFrameMessage({ source: frameSource.frame, type: 'vote', hint, cast: true })).toBeUndefined();
  });

  it('accepts the host hello only', () => {
    expect(isFrameHello({ source: frameSource.host, type: 'hello' })).toBe(true);
    expect(isFrameHello({ source: frameSource.frame, type: 'hello' })).toBe(false);
    expect(isFrameHello({ source: frameSource.host, type: 'hello', extra: 1 })).toBe(false);
  });

  it('rounds sizes up and refuses absurd ones', () => {
    expect(readFrameMessage({ source: frameSource.frame, type: 'size', height: 300.2 })).toEqual({
      source: frameSource.frame,
      type: 'size',
      height: 301,
    });
    for (const height of [-1, Number.NaN, Infinity, 1e9, '300']) {
      expect(readFrameMessage({ source: frameSource.frame, type: 'size', height })).toBeUndefined();
    }
  });

  it('rebuilds card events from known fields and clean tracking', () => {
    const message = readFrameMessage({
      source: frameSource.frame,
      type: 'event',
      name: 'fan-poll-voted',
      detail: { pollId: 'p1', tracking: { referrer: 'site', campaign: 'bad\u0000' }, answerId: 'a1' },
    });
    expect(message).toEqual({
      source: frameSource.frame,
      type: 'event',
      name: 'fan-poll-voted',
      detail: { pollId: 'p1', tracking: { referrer: 'site' }, answerId: 'a1' },
    });
  });

  it.each([
    { name: 'click', detail: { pollId: 'p1', tracking: {} } },
    { name: 'fan-poll-vote', detail: { pollId: 'p1', tracking: {}, html: '<b>' } },
    { name: 'fan-poll-vote', detail: { pollId: 'p1', tracking: { token: 'x' } } },
    { name: 'fan-poll-vote', detail: { tracking: {} } },
    { name: 'fan-poll-vote', detail: { pollId: 'p1', tracking: {}, answerId: { nested: true } } },
  ])('rejects a malformed event %j', (fields) => {
    expect(readFrameMessage({ source: frameSource.frame, type: 'event', ...fields })).toBeUndefined();
  });
});
