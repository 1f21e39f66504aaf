import { describe, expect, it } from 'vitest';
import { pollTimeline } from './poll-phase.ts';
import { fixtureTimes as t, pollFixture } from './poll-fixture.ts';

describe('pollTimeline', () => {
  const poll = pollFixture();

  it('follows the dates: upcoming, open, closed, disclosed', () => {
    expect(pollTimeline(poll, t.beforeOpen)).toEqual({
      phase: 'upcoming',
      opensInMs: 30 * 60_000,
      closesInMs: 150 * 60_000,
      nextChangeAt: t.openAt,
    });
    expect(pollTimeline(poll, t.openAt)).toMatchObject({ phase: 'open', closesInMs: 120 * 60_000 });
    expect(pollTimeline(poll, t.whileOpen)).toEqual({
      phase: 'open',
      closesInMs: 60 * 60_000,
      nextChangeAt: t.closeAt,
    });
    expect(pollTimeline(poll, t.closeAt)).toEqual({ phase: 'closed', nextChangeAt: t.disclosedAt });
    expect(pollTimeline(poll, t.disclosedAt)).toEqual({ phase: 'disclosed' });
  });

  it('is closed for good when no disclosure date is given', () => {
    const { disclosedAt: _, ...undisclosed } = poll;
    expect(pollTimeline(undisclosed, t.afterDisclosure)).toEqual({ phase: 'closed' });
  });

  it('never discloses before the close', () => {
    const early = { ...poll, disclosedAt: '2026-05-01T12:30:00+00:00' };
    expect(pollTimeline(early, t.whileOpen).phase).toBe('open');
    expect(pollTimeline(early, t.afterClose).phase).toBe('disclosed');
  });

  it('is cancelled by status whatever the dates say', () => {
    for (const status of ['cancelled', 'CANCELLED', ' canceled ']) {
      expect(pollTimeline({ ...poll, status }, t.whileOpen)).toEqual({ phase: 'cancelled' });
    }
  });

  it('lets the dates decide for an unknown status, and is unknown for a status that says not running', () => {
    expect(pollTimeline({ ...poll, status: 'something-new' }, t.whileOpen).phase).toBe('open');
    expect(pollTimeline({ ...poll, status: 'draft' }, t.whileOpen).phase).toBe('unknown');
    expect(pollTimeline({ ...poll, status: 'Suspended' }, t.whileOpen).phase).toBe('unknown');
  });

  it('is unknown when dates are missing, unreadable or inverted', () => {
    const { openAt: _, ...noOpen } = poll;
    expect(pollTimeline(noOpen, t.whileOpen)).toEqual({ phase: 'unknown' });
    expect(pollTimeline({ ...poll, closeAt: 'soon' }, t.whileOpen)).toEqual({ phase: 'unknown' });
    expect(pollTimeline({ ...poll, closeAt: '2026-05-01T10:00:00Z' }, t.whileOpen)).toEqual({
      phase: 'unknown',
    });
  });
});
