import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSandbox } from '../../src/sandbox/sandbox.ts';
import { SandboxClock } from '../../src/sandbox/clock.ts';
import { phaseAt } from '../../src/sandbox/data/poll-tally.ts';

function frozenSandbox(options: { simulatedVotesPerMinute?: number; simulationSeed?: number } = {}) {
  const clock = new SandboxClock();
  clock.set(Date.parse('2026-03-01T12:00:00Z'));
  clock.freeze();
  return createSandbox({ clock, ...options });
}

describe('simulated fans', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('vote once per round in every open poll and nowhere else; percentages move and stay consistent', () => {
    const sandbox = frozenSandbox();
    const open = sandbox.polls.openPolls();
    expect(open.length).toBeGreaterThanOrEqual(4);
    const before = new Map(open.map((poll) => [poll.id, sandbox.polls.tally(poll)]));
    expect(sandbox.simulation.simulateVotes(10)).toBe(10 * open.length);
    for (const poll of sandbox.polls.all()) {
      const isOpen =
        phaseAt(poll, sandbox.clock.now()) === 'open' && poll.publicationDate <= sandbox.clock.now();
      expect(poll.votes.filter((vote) => vote.userId.startsWith('simulated-')).length).toBe(isOpen ? 10 : 0);
    }
    for (const poll of open) {
      const after = sandbox.polls.tally(poll);
      expect(after.uniqueVoteCount).toBe(before.get(poll.id)!.uniqueVoteCount + 10);
      expect(after.usedTokenCount).toBeGreaterThan(before.get(poll.id)!.usedTokenCount);
      expect(poll.votes.every((vote) => vote.weight >= 1 && vote.weight <= poll.tokenLimit)).toBe(true);
      const shares = after.answers.reduce(
        (sum, answer) => sum + Math.round(Number(answer.votePercentage) * 100),
        0,
      );
      expect(shares).toBe(10_000);
    }
  });

  it('replays the same votes from the same seed, and others from another seed', () => {
    const weights = (seed: number): number[] => {
      const sandbox = frozenSandbox({ simulationSeed: seed });
      sandbox.simulation.simulateVotes(5);
      return sandbox.polls.openPolls().flatMap((poll) => poll.votes.map((vote) => vote.weight));
    };
    expect(weights(7)).toEqual(weights(7));
    expect(weights(7)).not.toEqual(weights(8));
  });

  it('runs on a timer at the configured rate only once started, and stops', () => {
    vi.useFakeTimers();
    const sandbox = frozenSandbox({ simulatedVotesPerMinute: 6 });
    const open = sandbox.polls.openPolls().length;
    vi.advanceTimersByTime(60_000);
    expect(sandbox.simulation.castCount).toBe(0);
    sandbox.startSimulation();
    expect(sandbox.simulation.running).toBe(true);
    vi.advanceTimersByTime(60_000);
    expect(sandbox.simulation.castCount).toBe(6 * open);
    sandbox.stopSimulation();
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(60_000);
    expect(sandbox.simulation.castCount).toBe(6 * open);
  });

  it('starts no timer at a rate of 0', () => {
    vi.useFakeTimers();
    const sandbox = frozenSandbox({ simulatedVotesPerMinute: 0 });
    sandbox.startSimulation();
    expect(sandbox.simulation.running).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
  });
});
