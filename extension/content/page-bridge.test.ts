import { afterEach, describe, expect, it, vi } from 'vitest';
import { maxInFlight, maxWaiting, outcomeFrom, startPageBridge } from './page-bridge.ts';

const pollId = '11111111-2222-4333-8444-555555555555';
const answerId = '66666666-7777-4888-9999-000000000000';

function request(body: unknown, requestId = 'r1'): Record<string, unknown> {
  return { source: 'fan-polls-page', version: 2, requestId, request: body };
}

/** A user-activation watch that says the fan clicked `clicks` times. */
function clicks(count: number) {
  let left = count;
  return {
    take: () => (left > 0 ? ((left -= 1), true) : false),
    stop: () => undefined,
  };
}

/** Dispatches a message event as the browser would deliver a page's postMessage. */
function deliver(data: unknown, options: { source?: MessageEventSource | null; origin?: string } = {}): void {
  window.dispatchEvent(
    new MessageEvent('message', {
      data,
      source: options.source === undefined ? window : options.source,
      origin: options.origin ?? window.location.origin,
    }),
  );
}

let stop: (() => void) | undefined;
afterEach(() => {
  stop?.();
  vi.restoreAllMocks();
});

function setup(
  reply: unknown = { ok: true, result: { type: 'status', status: { signedIn: true } } },
  fanClicks = 0,
) {
  const sent: unknown[] = [];
  const posted: { message: unknown; targetOrigin: string }[] = [];
  vi.spyOn(window, 'postMessage').mockImplementation(((message: unknown, targetOrigin: string) => {
    posted.push({ message, targetOrigin });
  }) as typeof window.postMessage);
  stop = startPageBridge({
    window,
    send: (message) => {
      sent.push(message);
      return Promise.resolve(reply);
    },
    activation: clicks(fanClicks),
  });
  return { sent, posted };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('the page bridge (content script)', () => {
  it('forwards the closed list (hello too, judged by the background), replying to the page origin only', async () => {
    const { sent, posted } = setup({ ok: true, result: { type: 'hello', version: 2 } });
    deliver(request({ type: 'hello' }, 'h'));
    deliver(request({ type: 'status' }, 's'));
    await flush();
    expect(sent).toEqual([
      { type: 'bridge', payload: { request: { type: 'hello' }, userActivated: false } },
      { type: 'bridge', payload: { request: { type: 'status' }, userActivated: false } },
    ]);
    expect(posted.map((entry) => entry.targetOrigin)).toEqual([
      window.location.origin,
      window.location.origin,
    ]);
    expect(posted[0]!.message).toMatchObject({
      source: 'fan-polls-extension',
      requestId: 'h',
      outcome: { ok: true, result: { type: 'hello' } },
    });
    expect(posted[1]!.message).toMatchObject({ requestId: 's' });
    expect(posted.some((entry) => entry.targetOrigin === '*')).toBe(false);
  });

  it('drops messages from other windows, other origins, and of any other shape', async () => {
    const { sent, posted } = setup();
    const otherWindow = { postMessage: () => undefined } as unknown as MessageEventSource;
    deliver(request({ type: 'status' }), { source: otherWindow });
    deliver(request({ type: 'status' }), { source: null });
    deliver(request({ type: 'status' }), { origin: 'https://evil.example' });
    for (const data of [
      null,
      'status',
      [request({ type: 'status' })],
      { ...request({ type: 'status' }), version: 1 },
      request({ type: 'connect' }),
      { ...request({ type: 'status' }), extra: 1 },
      request({ type: 'status', extra: 1 }),
      request({ type: 'vote', pollId, answerId: 'not-a-uuid' }),
      request({ type: 'poll-view', pollId: `${pollId}?x` }),
      request({ type: 'sign-in', tracking: { referrer: 'x'.repeat(101) } }),
      request({ type: 'sign-in', tracking: { other: 'x' } }),
      request({ type: 'sign-in', tracking: { referrer: 'a\nb' } }),
      request({ type: 'sign-out' }),
      request({ type: 'status' }, 'x'.repeat(65)),
      {
        source: 'fan-polls-extension',
        version: 1,
        requestId: 'r1',
        outcome: { ok: true, result: { type: 'vote', accepted: true, answerId } },
      },
    ]) {
      deliver(data);
    }
    await flush();
    expect(sent).toEqual([]);
    expect(posted).toEqual([]);
  });

  it('forwards a vote and a sign-in as checked, each with whether the fan just clicked (one click, one window)', async () => {
    const { sent } = setup({ ok: true, result: { type: 'vote', accepted: true, answerId } }, 1);
    deliver(request({ type: 'vote', pollId, answerId }));
    deliver(request({ type: 'sign-in', tracking: { referrer: 'club', campaign: '' } }));
    await flush();
    expect(sent).toEqual([
      { type: 'bridge', payload: { request: { type: 'vote', pollId, answerId }, userActivated: true } },
      {
        type: 'bridge',
        payload: {
          request: { type: 'sign-in', tracking: { referrer: 'club', campaign: '' } },
          userActivated: false,
        },
      },
    ]);
  });

  it('gives a frame the background does not hear no answer at all', async () => {
    const { sent, posted } = setup({
      ok: false,
      error: { code: 'forbidden', message: 'This frame is not heard.' },
    });
    deliver(request({ type: 'hello' }));
    await flush();
    expect(sent).toHaveLength(1);
    expect(posted).toEqual([]);
  });

  it('rebuilds every answer field by field: nothing extra reaches the page', () => {
    const leaky = {
      ok: true,
      result: {
        type: 'poll-view',
        accessToken: 'CANARY-1',
        view: {
          pollId,
          userVote: true,
          token: 'CANARY-2',
          answers: [{ id: answerId, voteStatus: 'pending', refreshToken: 'CANARY-3' }],
        },
      },
    };
    const outcome = outcomeFrom(leaky);
    expect(outcome).toEqual({
      ok: true,
      result: {
        type: 'poll-view',
        view: { pollId, userVote: true, answers: [{ id: answerId, voteStatus: 'pending' }] },
      },
    });
    expect(
      JSON.stringify(
        outcomeFrom({
          ok: true,
          result: { type: 'status', status: { signedIn: true, accessToken: 'CANARY' } },
        }),
      ),
    ).not.toContain('CANARY');
    expect(outcomeFrom({ ok: true, result: { type: 'token', value: 'CANARY' } })).toMatchObject({
      ok: false,
    });
    expect(outcomeFrom(undefined)).toMatchObject({ ok: false, error: { code: 'unavailable' } });
  });

  it('passes a known vote refusal reason to the page, and drops any other value or field', () => {
    expect(
      outcomeFrom({
        ok: false,
        error: { code: 'refused', message: 'Already.', reason: 'already_voted', token: 'CANARY' },
      }),
    ).toEqual({ ok: false, error: { code: 'refused', message: 'Already.', reason: 'already_voted' } });
    for (const reason of ['CANARY-token', 42, { toString: 'x' }]) {
      expect(outcomeFrom({ ok: false, error: { code: 'refused', message: 'No.', reason } })).toEqual({
        ok: false,
        error: { code: 'refused', message: 'No.' },
      });
    }
  });

  it('limits requests in flight, says nothing of its own, and drops what waits once the background refuses the frame', async () => {
    const posted: { message: unknown }[] = [];
    vi.spyOn(window, 'postMessage').mockImplementation(((message: unknown) => {
      posted.push({ message });
    }) as typeof window.postMessage);
    const pending: ((reply: unknown) => void)[] = [];
    const sent: unknown[] = [];
    stop = startPageBridge({
      window,
      send: (message) => {
        sent.push(message);
        return new Promise((resolve) => pending.push(resolve));
      },
      activation: clicks(0),
    });
    const total = maxInFlight + maxWaiting + 20;
    for (let index = 0; index < total; index += 1) deliver(request({ type: 'status' }, `r${index}`));
    await flush();
    // No `rate_limited` (or anything else) from the content script: a page that is not heard learns nothing.
    expect(posted).toHaveLength(0);
    expect(sent).toHaveLength(maxInFlight);
    // The background answers the first: the next waiting one goes.
    pending.shift()!({ ok: true, result: { type: 'status', status: { signedIn: false } } });
    await flush();
    expect(posted).toHaveLength(1);
    expect(sent).toHaveLength(maxInFlight + 1);
    // The background refuses the frame: nothing is answered and what waited is dropped.
    pending.shift()!({ ok: false, error: { code: 'forbidden', message: 'This frame is not heard.' } });
    await flush();
    expect(posted).toHaveLength(1);
    expect(sent).toHaveLength(maxInFlight + 1);
  });
});
