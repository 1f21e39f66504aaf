import { describe, expect, it } from 'vitest';
import type { Poll } from '../platform/types.ts';
import { currentPoll } from './current-poll.ts';
import { pollFixture } from './poll-fixture.ts';

const hour = 3_600_000;
const now = Date.parse('2026-05-10T12:00:00Z');
const day = 24 * hour;

/** A poll opening and closing `openIn`/`closeIn` hours from now, disclosed `discloseIn` hours from now. */
function poll(id: string, openIn: number, closeIn: number, discloseIn = closeIn, status = 'active'): Poll {
  const at = (hours: number) => new Date(now + hours * hour).toISOString();
  return pollFixture({ id, openAt: at(openIn), closeAt: at(closeIn), disclosedAt: at(discloseIn), status });
}

describe('currentPoll', () => {
  it('is the open poll that closes soonest', () => {
    const polls = [poll('late', -5, 48), poll('soon', -1, 2), poll('next', 1, 3), poll('ended', -9, -1)];
    expect(currentPoll(polls, now, day)?.id).toBe('soon');
  });

  it('is the next poll to open when none is open', () => {
    const polls = [poll('later', 30, 40), poll('next', 2, 50), poll('ended', -9, -1)];
    expect(currentPoll(polls, now, day)?.id).toBe('next');
  });

  it('is the poll closed or disclosed most recently, within the age', () => {
    const polls = [poll('old', -90, -80), poll('recent', -30, -3), poll('disclosed', -40, -20, -2)];
    expect(currentPoll(polls, now, day)?.id).toBe('disclosed');
    expect(currentPoll([poll('old', -90, -80)], now, day)).toBeUndefined();
    expect(currentPoll([poll('old', -90, -80)], now, 4 * day)?.id).toBe('old');
  });

  it('never picks a cancelled poll or one whose dates cannot be read', () => {
    const cancelled = poll('cancelled', -1, 1, 1, 'cancelled');
    const unreadable = { ...poll('unreadable', -1, 1), closeAt: 'soon' };
    expect(currentPoll([cancelled, unreadable, poll('next', 5, 9)], now, day)?.id).toBe('next');
    expect(currentPoll([], now, day)).toBeUndefined();
  });

  it('breaks a tie by id, whatever the order', () => {
    const polls = [poll('b', -1, 2), poll('a', -3, 2)];
    expect(currentPoll(polls, now, day)?.id).toBe('a');
    expect(currentPoll([...polls].reverse(), now, day)?.id).toBe('a');
  });
});
