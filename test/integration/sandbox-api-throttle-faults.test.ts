import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSandbox } from '../../src/sandbox/sandbox.ts';
import { SandboxClock } from '../../src/sandbox/clock.ts';
import { sandboxChoices } from '../../src/sandbox/choices.ts';
import { apiRequest, applicationToken, fanToken } from '../../src/sandbox/test-kit.ts';
import { seededPollId } from '../../src/sandbox/data/seed-polls.ts';

function frozenClock(at = Date.parse('2026-09-01T23:59:10Z')): SandboxClock {
  const clock = new SandboxClock();
  clock.set(at);
  clock.freeze();
  return clock;
}

describe('sandbox throttling per application', () => {
  it('answers 429 with the gateway body and a Retry-After HTTP-date once the quota is spent', async () => {
    const clock = frozenClock();
    const sandbox = createSandbox({ clock, requestsPerMinute: 3 });
    const token = applicationToken(sandbox);
    for (let index = 0; index < 3; index += 1) {
      expect((await apiRequest(sandbox, '/polls/1.0.8/polls', token)).status).toBe(200);
    }
    const throttled = await apiRequest(sandbox, '/user/1.0.0/user/me', fanToken(sandbox, 'sam'));
    expect(throttled.status).toBe(429);
    expect(throttled.headers.get('Retry-After')).toBe('Wed, 02 Sep 2026 00:00:00 GMT');
    expect(await throttled.json()).toEqual({
      code: sandboxChoices.throttleCode,
      message: 'Message throttled out',
      description: 'You have exceeded your quota .You can access API after 2026-Sep-02 00:00:00+0000 UTC',
      nextAccessTime: '2026-Sep-02 00:00:00+0000 UTC',
    });
    clock.advance(50_000);
    expect((await apiRequest(sandbox, '/polls/1.0.8/polls', token)).status).toBe(200);
  });

  it('counts each application apart, and never counts a request the gateway refused earlier', async () => {
    const sandbox = createSandbox({
      clock: frozenClock(),
      requestsPerMinute: 1,
      applications: [
        {
          clientId: 'other',
          clientSecret: 's',
          partnerTag: 'o',
          name: 'Other',
          redirectUris: [],
          subscribed: true,
        },
      ],
    });
    expect((await apiRequest(sandbox, '/polls/1.0.8/polls')).status).toBe(401);
    expect((await apiRequest(sandbox, '/polls/1.0.8/polls', applicationToken(sandbox))).status).toBe(200);
    expect((await apiRequest(sandbox, '/polls/1.0.8/polls', applicationToken(sandbox))).status).toBe(429);
    expect((await apiRequest(sandbox, '/polls/1.0.8/polls', applicationToken(sandbox, 'other'))).status).toBe(
      200,
    );
  });

  it('uses the default rate from choices.ts and changes it at run time', async () => {
    const sandbox = createSandbox({ clock: frozenClock() });
    expect(sandbox.throttle.requestsPerMinute).toBe(sandboxChoices.requestsPerMinute);
    sandbox.throttle.requestsPerMinute = 1;
    const token = applicationToken(sandbox);
    expect((await apiRequest(sandbox, '/polls/1.0.8/polls', token)).status).toBe(200);
    expect((await apiRequest(sandbox, '/polls/1.0.8/polls', token)).status).toBe(429);
    sandbox.throttle.requestsPerMinute = 0;
    expect((await apiRequest(sandbox, '/polls/1.0.8/polls', token)).status).toBe(200);
  });
});

describe('sandbox fault profiles, in-process', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('answers the next N requests with a 5xx burst, then recovers', async () => {
    const sandbox = createSandbox();
    const token = applicationToken(sandbox);
    sandbox.faults.failNext(2);
    for (let index = 0; index < 2; index += 1) {
      const response = await apiRequest(sandbox, '/polls/1.0.8/polls', token);
      expect(response.status).toBe(503);
      expect(await response.json()).toEqual({
        code: '101503',
        message: 'Runtime Error',
        description: 'Error connecting to the back end',
      });
    }
    expect((await apiRequest(sandbox, '/polls/1.0.8/polls', token)).status).toBe(200);
    sandbox.faults.failNext(1, 500);
    expect((await apiRequest(sandbox, '/polls/1.0.8/polls', token)).status).toBe(500);
    sandbox.faults.failNext(1, 504);
    expect(await (await apiRequest(sandbox, '/polls/1.0.8/polls', token)).json()).toMatchObject({
      code: '101504',
    });
  });

  it('answers a 429 storm with the chosen Retry-After', async () => {
    const sandbox = createSandbox({ clock: frozenClock(Date.parse('2026-09-02T10:00:00Z')) });
    sandbox.faults.throttleNext(2, 90);
    for (let index = 0; index < 2; index += 1) {
      const response = await apiRequest(sandbox, '/polls/1.0.8/polls', applicationToken(sandbox));
      expect(response.status).toBe(429);
      expect(response.headers.get('Retry-After')).toBe('Wed, 02 Sep 2026 10:01:30 GMT');
      expect(await response.json()).toMatchObject({ nextAccessTime: '2026-Sep-02 10:01:30+0000 UTC' });
    }
    expect((await apiRequest(sandbox, '/polls/1.0.8/polls', applicationToken(sandbox))).status).toBe(200);
  });

  it('cuts the next JSON bodies in half, keeping the status', async () => {
    const sandbox = createSandbox();
    sandbox.faults.malformNext(1);
    const response = await apiRequest(sandbox, '/polls/1.0.8/polls', applicationToken(sandbox));
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toMatch(/^application\/json/);
    await expect(response.json()).rejects.toThrow(SyntaxError);
    expect(
      await (await apiRequest(sandbox, '/polls/1.0.8/polls', applicationToken(sandbox))).json(),
    ).toHaveProperty('data');
  });

  it('drops the connection: in-process the request rejects with a TypeError, as fetch does', async () => {
    const sandbox = createSandbox();
    sandbox.faults.dropNext(1);
    await expect(apiRequest(sandbox, '/polls/1.0.8/polls', applicationToken(sandbox))).rejects.toThrow(
      TypeError,
    );
    expect((await apiRequest(sandbox, '/polls/1.0.8/polls', applicationToken(sandbox))).status).toBe(200);
  });

  it('delays answers by the set latency', async () => {
    vi.useFakeTimers();
    const sandbox = createSandbox();
    sandbox.faults.setLatency(2000);
    let settled = false;
    const pending = apiRequest(sandbox, '/polls/1.0.8/polls', applicationToken(sandbox)).then((response) => {
      settled = true;
      return response;
    });
    await vi.advanceTimersByTimeAsync(1999);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect((await pending).status).toBe(200);
  });

  it('applies to the OAuth origin too, and never to the control routes', async () => {
    const sandbox = createSandbox();
    sandbox.faults.failNext(1);
    expect((await sandbox.auth.request('/oauth2/token', { method: 'POST' })).status).toBe(503);
    sandbox.faults.failNext(5);
    const control = await sandbox.api.request('/__sandbox/faults', {
      method: 'DELETE',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(control.status).toBe(200);
    expect(sandbox.faults.settings.errorNext).toBe(0);
  });

  it('clears every fault on reset, and reseeds votes', () => {
    const sandbox = createSandbox();
    sandbox.faults.failNext(3);
    const kit = sandbox.polls.find(seededPollId('riverside-away-kit'))!;
    sandbox.polls.recordSimulatedVote(kit, kit.answers[0]!.id, 'someone', 10);
    sandbox.reset();
    expect(sandbox.faults.settings.errorNext).toBe(0);
    expect(sandbox.polls.find(kit.id)!.votes).toEqual([]);
  });
});
