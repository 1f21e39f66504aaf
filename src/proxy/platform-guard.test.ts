import { describe, expect, it } from 'vitest';
import { createJsonLogger } from './logger.ts';
import { createPlatformGuard, endpointFamily, heldHeader } from './platform-guard.ts';

const auth = 'https://auth.test/oauth2/token';
const poll = 'https://api.test/polls/1.0.8/poll/p1';
const me = 'https://api.test/user/1.0.0/user/me';

type Answer = () => Response | Promise<Response>;

/** A guard over a scripted platform, on a clock the test moves; `random` pinned unless given. */
function guardOver(answer: (url: string) => Answer, random = () => 0) {
  let clock = 1_000_000;
  const sent: string[] = [];
  const guard = createPlatformGuard(
    async (input) => {
      const url = input instanceof Request ? input.url : input instanceof URL ? input.href : input;
      sent.push(url);
      return answer(url)();
    },
    { now: () => clock, logger: createJsonLogger([], () => undefined), random },
  );
  return {
    guard,
    sent,
    advance: (ms: number) => {
      clock += ms;
    },
    get: (url: string) => guard.fetch(url, { method: url === auth ? 'POST' : 'GET' }),
  };
}

const ok = (body: unknown = { data: {} }) => new Response(JSON.stringify(body), { status: 200 });
const down: Answer = () => {
  throw new TypeError('fetch failed');
};

describe('endpointFamily', () => {
  it('tells the token endpoint and each resource family apart', () => {
    const family = (url: string, method = 'GET') => endpointFamily(new URL(url), method);
    expect(family(auth, 'POST')).toBe('token');
    expect(family('https://auth.test/oauth2/revoke', 'POST')).toBe('revoke');
    expect(family('https://api.test/polls/1.0.8/polls')).toBe('polls');
    expect(family(poll)).toBe('polls');
    expect(family('https://api.test/polls/1.0.8/user/poll/p1')).toBe('user-polls');
    expect(family('https://api.test/polls/1.0.8/user/poll/p1/vote', 'POST')).toBe('vote');
    expect(family(me)).toBe('user');
  });
});

describe('per-endpoint breakers', () => {
  it('opens the token endpoint’s breaker while the resource routes answer, and only its success closes it', async () => {
    const { get, sent, advance, guard } = guardOver((url) => (url === auth ? down : () => ok()));
    for (let index = 0; index < 3; index += 1) {
      await expect(get(auth)).rejects.toThrow('fetch failed');
      // Reads succeed in between: they must not reset the token endpoint's count.
      expect((await get(poll)).status).toBe(200);
    }
    const held = await get(auth);
    expect(held.status).toBe(429);
    expect(held.headers.get(heldHeader)).toBe('failing');
    expect(sent.filter((url) => url === auth)).toHaveLength(3);
    expect((await get(me)).status).toBe(200);
    expect(guard.breakers().token?.open).toBe(true);
    advance(1000);
    await expect(get(auth)).rejects.toThrow('fetch failed');
    expect(sent.filter((url) => url === auth)).toHaveLength(4);
  });

  it('counts a malformed 200 as a failure: three garbage reads, then held', async () => {
    const { get, sent } = guardOver(() => () => new Response('{"data": [', { status: 200 }));
    for (let index = 0; index < 10; index += 1) await get(poll);
    expect(sent).toHaveLength(3);
    const token = guardOver(() => () => ok({ token_type: 'Bearer' }));
    for (let index = 0; index < 10; index += 1) await token.get(auth);
    expect(token.sent).toHaveLength(3);
  });

  it('backs off exponentially up to 10 s between trials, with jitter, and closes on a trial’s success', async () => {
    let platformUp = false;
    const { get, sent, advance } = guardOver(
      () => (platformUp ? () => ok() : down),
      () => 0.999,
    );
    for (let index = 0; index < 3; index += 1) await get(poll).catch(() => undefined);
    const trialsAt: number[] = [];
    for (let tenth = 1; tenth <= 300; tenth += 1) {
      advance(100);
      const before = sent.length;
      await get(poll).catch(() => undefined);
      if (sent.length > before) trialsAt.push(tenth / 10);
    }
    // Nominal holds 1, 2, 4, 8 s, each three quarters long here (and rounded up to the test's next 100 ms).
    expect(trialsAt.slice(0, 4)).toEqual([0.8, 2.4, 5.5, 11.6]);
    expect(trialsAt.length).toBeLessThanOrEqual(7);
    platformUp = true;
    advance(10_000);
    expect((await get(poll)).status).toBe(200);
    expect((await get(poll)).status).toBe(200);
  });

  it('lets one trial out at a time', async () => {
    let release: (() => void) | undefined;
    let failing = true;
    const { get, sent, advance } = guardOver(() =>
      failing
        ? down
        : release === undefined
          ? () =>
              new Promise<Response>((resolve) => {
                release = () => {
                  resolve(ok());
                };
              })
          : () => ok(),
    );
    for (let index = 0; index < 3; index += 1) await get(poll).catch(() => undefined);
    failing = false;
    advance(1000);
    const trial = get(poll);
    expect((await get(poll)).status).toBe(429);
    expect(sent).toHaveLength(4);
    release?.();
    expect((await trial).status).toBe(200);
    expect((await get(poll)).status).toBe(200);
  });

  it('holds every family after a 429, until its Retry-After', async () => {
    let answered = 0;
    const { get, sent, advance } = guardOver(
      () => () =>
        answered++ === 0 ? new Response('{}', { status: 429, headers: { 'Retry-After': '5' } }) : ok(),
    );
    expect((await get(poll)).status).toBe(429);
    const held = await get(me);
    expect(held.headers.get(heldHeader)).toBe('throttled');
    expect(held.headers.get('Retry-After')).toBe('5');
    expect(sent).toHaveLength(1);
    advance(5000);
    expect((await get(me)).status).toBe(200);
  });
});
