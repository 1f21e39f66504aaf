import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveSandbox, type RunningSandbox } from '../../src/sandbox/serve.ts';
import { applicationToken, fanToken } from '../../src/sandbox/test-kit.ts';
import { seededPollId } from '../../src/sandbox/data/seed-polls.ts';

let running: RunningSandbox;

beforeAll(async () => {
  running = await serveSandbox({ apiPort: 0, authPort: 0, simulatedVotesPerMinute: 1 });
});

afterAll(async () => {
  await running.close();
  expect(running.sandbox.simulation.running).toBe(false);
});

function control(path: string, body: unknown = {}): Promise<Response> {
  return fetch(`${running.apiUrl}/__sandbox/${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
}

describe('sandbox resource API over real sockets', () => {
  it('serves two origins and runs the simulation timer while served', () => {
    expect(running.apiUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(running.authUrl).not.toBe(running.apiUrl);
    expect(running.sandbox.simulation.running).toBe(true);
  });

  it('lists polls with image URLs on the API origin, and serves the logo', async () => {
    const response = await fetch(`${running.apiUrl}/polls/1.0.8/polls?limit=1`, {
      headers: {
        Authorization: `Bearer ${applicationToken(running.sandbox)}`,
        Origin: 'https://club.example',
      },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('Access-Control-Allow-Origin')).toBe('*');
    const { data } = (await response.json()) as { data: { partnerImages: { url: string }[] }[] };
    const logoUrl = data[0]!.partnerImages[0]!.url;
    expect(logoUrl.startsWith(`${running.apiUrl}/assets/clubs/`)).toBe(true);
    expect((await fetch(logoUrl)).headers.get('Content-Type')).toBe('image/svg+xml');
  });

  it('answers a gateway 401 with its challenge header', async () => {
    const response = await fetch(`${running.apiUrl}/polls/1.0.8/user/polls`);
    expect(response.status).toBe(401);
    expect(response.headers.get('WWW-Authenticate')).toContain('realm="WSO2 API Manager"');
  });

  it('votes with 201 and no body', async () => {
    const pollId = seededPollId('riverside-player-of-the-month');
    const answerId = running.sandbox.polls.find(pollId)!.answers[0]!.id;
    const response = await fetch(`${running.apiUrl}/polls/1.0.8/user/poll/${pollId}/vote`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${fanToken(running.sandbox, 'sam')}`,
        'Content-Type': 'application/json',
      },
      body: JSON.stringify({ answerId }),
    });
    expect(response.status).toBe(201);
    expect(await response.text()).toBe('');
  });

  it('drives faults over HTTP: a dropped connection, a 5xx burst, then off again', async () => {
    const token = applicationToken(running.sandbox);
    const list = (): Promise<Response> =>
      fetch(`${running.apiUrl}/polls/1.0.8/polls`, { headers: { Authorization: `Bearer ${token}` } });
    expect((await control('faults', { dropNext: 1 })).status).toBe(200);
    await expect(list()).rejects.toThrow(TypeError);
    expect((await control('faults', { errorNext: 1, errorStatus: 502 })).status).toBe(200);
    expect((await list()).status).toBe(502);
    expect((await control('faults', { malformNext: 1 })).status).toBe(200);
    await expect((await list()).json()).rejects.toThrow(SyntaxError);
    expect((await list()).status).toBe(200);
    expect((await control('faults', { bogus: 1 })).status).toBe(400);
  });

  it('sets the clock, simulates votes, rejects votes and resets over HTTP', async () => {
    const state = (await (await control('clock', { now: '2030-01-01T00:00:00Z', frozen: true })).json()) as {
      now: string;
      frozen: boolean;
    };
    expect(state).toMatchObject({ now: '2030-01-01T00:00:00+00:00', frozen: true });
    const reset = (await (await control('reset')).json()) as { polls: { phase: string }[] };
    expect(reset.polls.some((poll) => poll.phase === 'open')).toBe(true);
    const simulated = (await (await control('simulate', { rounds: 2 })).json()) as { cast: number };
    expect(simulated.cast).toBe(2 * running.sandbox.polls.openPolls().length);
    expect(await (await control('votes/reject-next', { count: 2 })).json()).toEqual({ pendingRejections: 2 });
    expect((await control('clock', { now: 'soon' })).status).toBe(400);
    const read = await fetch(`${running.apiUrl}/__sandbox/state`);
    expect(((await read.json()) as { frozen: boolean }).frozen).toBe(true);
    await control('clock', { frozen: false });
  });

  it('refuses control writes without a JSON content type, and answers no CORS on them', async () => {
    const response = await fetch(`${running.apiUrl}/__sandbox/reset`, { method: 'POST', body: 'x' });
    expect(response.status).toBe(415);
    expect(response.headers.get('Access-Control-Allow-Origin')).toBeNull();
  });

  it('changes the throttle rate over HTTP', async () => {
    // A frozen clock keeps the one-minute window from rolling over between requests.
    await control('clock', { frozen: true });
    await control('settings', { requestsPerMinute: 1 });
    const token = applicationToken(running.sandbox);
    const list = (): Promise<Response> =>
      fetch(`${running.apiUrl}/polls/1.0.8/polls`, { headers: { Authorization: `Bearer ${token}` } });
    await list();
    const throttled = await list();
    expect(throttled.status).toBe(429);
    expect(throttled.headers.get('Retry-After')).toMatch(/GMT$/);
    await control('settings', { requestsPerMinute: 0 });
    expect((await list()).status).toBe(200);
    await control('clock', { frozen: false });
  });
});
