// The sandbox's control routes refuse what they cannot honour (400, never a 500 or corrupted polls), and the
// simulation restarts when its rate becomes positive again.
import { afterEach, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/sandbox/sandbox.ts';
import { applicationToken, apiRequest } from '../../src/sandbox/test-kit.ts';

let sandbox: Sandbox;
afterEach(() => {
  sandbox.stopSimulation();
});

const control = (path: string, body: unknown) =>
  sandbox.api.request(`/__sandbox/${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('sandbox control routes', () => {
  it('refuses a clock beyond a date’s range with 400, and the polls stay readable after a reset', async () => {
    sandbox = createSandbox();
    for (const body of [
      { now: 8.64e15 },
      { now: 1e20 },
      { advanceMs: 1e18 },
      { now: '+275760-09-13T00:00:00Z' },
    ]) {
      const answer = await control('clock', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
    }
    expect((await control('reset', {})).status).toBe(200);
    const polls = await apiRequest(sandbox, '/polls/1.0.8/polls?limit=100', applicationToken(sandbox));
    expect(polls.status).toBe(200);
    const data = ((await polls.json()) as { data: { openAt?: string }[] }).data;
    expect(data.length).toBeGreaterThan(0);
    expect(data.every((poll) => poll.openAt === undefined || !Number.isNaN(Date.parse(poll.openAt)))).toBe(
      true,
    );
  });

  it('bounds the settings: no simulation rate above 6,000 a minute, no fractions, no negatives', async () => {
    sandbox = createSandbox();
    for (const body of [
      { simulatedVotesPerMinute: 260_640 },
      { simulatedVotesPerMinute: 1.5 },
      { requestsPerMinute: -1 },
      { voteConfirmationMs: 1e12 },
    ]) {
      expect((await control('settings', body)).status, JSON.stringify(body)).toBe(400);
    }
    expect((await control('settings', { simulatedVotesPerMinute: 6000 })).status).toBe(200);
  });

  it('restarts the simulation when its rate goes from 0 back to a positive one', async () => {
    sandbox = createSandbox({ simulatedVotesPerMinute: 60 });
    sandbox.startSimulation();
    expect(sandbox.simulation.running).toBe(true);
    expect((await control('settings', { simulatedVotesPerMinute: 0 })).status).toBe(200);
    expect(sandbox.simulation.running).toBe(false);
    expect((await control('settings', { simulatedVotesPerMinute: 30 })).status).toBe(200);
    expect(sandbox.simulation.running).toBe(true);
    sandbox.stopSimulation();
    expect((await control('settings', { simulatedVotesPerMinute: 30 })).status).toBe(200);
    expect(sandbox.simulation.running).toBe(false);
  });
});
