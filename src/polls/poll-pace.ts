import type { Poll } from '../platform/types.ts';
import { delayAfterAnswer } from './answer-freshness.ts';
import { pollTimeline } from './poll-phase.ts';

/** How often the live store reads a poll, by phase. */
export interface PaceSettings {
  readonly openMs: number;
  /** Until the opening; the read at the opening instant happens whatever this says. */
  readonly upcomingMs: number;
  readonly closedMs: number;
  readonly unknownMs: number;
  /** A poll id the platform did not return (not published yet, or wrong). */
  readonly notFoundMs: number;
}

export const defaultPace: PaceSettings = {
  openMs: 5000,
  upcomingMs: 30_000,
  closedMs: 300_000,
  unknownMs: 60_000,
  notFoundMs: 60_000,
};

export interface NextRead {
  /** When to read the poll again; undefined when it cannot change any more (disclosed, cancelled). */
  readonly at: number | undefined;
  /** The phase's pace, used to let a poll due soon ride along with a read that happens anyway. */
  readonly paceMs: number;
}

/**
 * When a poll just read at `nowMs` should be read again: by its phase, and never later than its next phase change. An
 * open poll whose answer said how long it stays the newest (`freshForMs`) is read again when it is replaced instead.
 */
export function nextRead(poll: Poll, nowMs: number, pace: PaceSettings, freshForMs?: number): NextRead {
  const timeline = pollTimeline(poll, nowMs);
  const within = (paceMs: number, delayMs = paceMs): NextRead => ({
    at: Math.min(nowMs + delayMs, timeline.nextChangeAt ?? Number.POSITIVE_INFINITY),
    paceMs,
  });
  switch (timeline.phase) {
    case 'open':
      return within(pace.openMs, delayAfterAnswer(freshForMs, pace.openMs));
    case 'upcoming':
      return within(pace.upcomingMs);
    case 'closed':
      return within(pace.closedMs);
    case 'unknown':
      return within(pace.unknownMs);
    case 'disclosed':
    case 'cancelled':
      return { at: undefined, paceMs: 0 };
  }
}
