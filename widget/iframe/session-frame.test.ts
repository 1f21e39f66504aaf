// The session frame's side: it answers only its parent, on the page origin it was given, with one of the contract's
// shapes, for the closed list of routes; the credential it redeems goes only into its own requests, never into a
// message to the page.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { frameChallengeOf, frameSessionHeaderName } from '../../src/contracts/frame-session-contract.ts';
import { sessionFrameSource } from '../messages/session-frame-messages.ts';
import { messageFrom } from '../test-support/message-from.ts';
import { startSessionFrame } from './session-frame.ts';

const pageOrigin = 'https://club.example';
const pollId = '3f2a9c1e-5b7d-4e8f-9a0b-1c2d3e4f5a6b';
const credential = 'grant.session~signature-canary';

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/** A frame started with a fake parent and proxy; `send` posts to it as `source` from `origin`. */
function startFrame() {
  const posted: unknown[] = [];
  const parent = { postMessage: vi.fn((message: unknown) => posted.push(message)) };
  const requests: { url: string; headers: Record<string, string>; body?: string }[] = [];
  const fetch = vi.fn((input: string, init?: RequestInit) => {
    const url = input;
    requests.push({
      url,
      headers: (init?.headers ?? {}) as Record<string, string>,
      ...(typeof init?.body === 'string' && { body: init.body }),
    });
    if (url.endsWith('/auth/frame-session'))
      return Promise.resolve(json({ signedIn: true, userId: 'u-sam', credential }));
    return Promise.resolve(json({ signedIn: true, userId: 'u-sam' }));
  });
  startSessionFrame(pageOrigin, {
    parent: parent as unknown as Window,
    fetch: fetch as unknown as typeof globalThis.fetch,
  });
  const send = (data: unknown, options: { origin?: string; source?: unknown } = {}) => {
    messageFrom(options.source ?? parent, options.origin ?? pageOrigin, data);
  };
  const answers = () => posted.filter((message) => (message as { type: string }).type === 'answer');
  return { parent, posted, requests, send, answers };
}

const call = (id: number, path: string, method = 'GET', body?: unknown) => ({
  source: sessionFrameSource.page,
  type: 'call',
  id,
  path,
  method,
  ...(body !== undefined && { body }),
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the session frame', () => {
  it('gives its challenge to the page, redeems with its verifier, and sends the credential only to the proxy', async () => {
    const frame = startFrame();
    await vi.waitFor(() => {
      expect(frame.posted).toHaveLength(1);
    });
    const first = frame.posted[0] as { type: string; challenge: string };
    expect(first.type).toBe('challenge');
    expect(frame.parent.postMessage).toHaveBeenCalledWith(first, pageOrigin);

    frame.send({ source: sessionFrameSource.page, type: 'redeem', id: 1, handoff: 'h'.repeat(43) });
    await vi.waitFor(() => {
      expect(frame.answers()).toHaveLength(1);
    });
    const redeem = frame.requests[0]!;
    const { verifier } = JSON.parse(redeem.body ?? '{}') as { verifier: string };
    // The sign-in's challenge was this verifier's: only this frame could redeem the code.
    expect(await frameChallengeOf(verifier)).toBe(first.challenge);
    expect(frame.answers()[0]).toEqual({
      source: sessionFrameSource.frame,
      type: 'answer',
      id: 1,
      ok: true,
      body: { signedIn: true, userId: 'u-sam' },
    });
    // A fresh challenge for the next sign-in.
    const challenges = frame.posted.filter((message) => (message as { type: string }).type === 'challenge');
    expect(challenges).toHaveLength(2);
    expect(challenges[1]).not.toEqual(first);

    frame.send(call(2, `/api/user/polls/${pollId}/vote?campaign=spring`, 'POST', { answerId: 'a-1' }));
    await vi.waitFor(() => {
      expect(frame.answers()).toHaveLength(2);
    });
    expect(frame.requests[1]?.headers[frameSessionHeaderName]).toBe(credential);
    expect(JSON.stringify(frame.posted)).not.toContain(credential);
    expect(JSON.stringify(frame.posted)).not.toContain(verifier);
  });

  it.each([
    ['another origin', call(1, '/auth/session'), { origin: 'https://evil.example' }],
    ['another window', call(1, '/auth/session'), { source: window }],
    ['a route off the list', call(1, '/api/user/me'), {}],
    ['a vote without its body', call(1, `/api/user/polls/${pollId}/vote`, 'POST'), {}],
    [
      'a body off the shape',
      call(1, `/api/user/polls/${pollId}/vote`, 'POST', { answerId: 'a', more: 1 }),
      {},
    ],
    ['a path outside the proxy', call(1, '//evil.example/auth/session'), {}],
    ['an extra key', { ...call(1, '/auth/session'), credentials: 'include' }, {}],
    ['another source tag', { ...call(1, '/auth/session'), source: sessionFrameSource.frame }, {}],
    ['a redeem without its code', { source: sessionFrameSource.page, type: 'redeem', id: 1 }, {}],
  ])('ignores %s', async (_name, data, options) => {
    const frame = startFrame();
    await vi.waitFor(() => {
      expect(frame.posted).toHaveLength(1);
    });
    frame.send(data, options);
    // The same frame answers a well-formed call next: the one before it was dropped, not queued.
    frame.send(call(9, '/auth/session'));
    await vi.waitFor(() => {
      expect(frame.answers()).toHaveLength(1);
    });
    expect(frame.requests).toHaveLength(1);
    expect((frame.answers()[0] as { id: number }).id).toBe(9);
  });
});
