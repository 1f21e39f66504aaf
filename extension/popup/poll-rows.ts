import type { Poll } from '../../src/platform/types.ts';
import { pollTimeline, type PollPhase } from '../../src/polls/poll-phase.ts';

/** What the popup's compact list shows of a poll: one line of facts under the question. */
export interface PollRow {
  readonly poll: Poll;
  readonly phase: PollPhase;
}

const phaseOrder: Record<PollPhase, number> = {
  open: 0,
  upcoming: 1,
  closed: 2,
  disclosed: 3,
  unknown: 4,
  cancelled: 5,
};

export const phaseLabels: Record<PollPhase, string> = {
  open: 'Open',
  upcoming: 'Upcoming',
  closed: 'Closed',
  disclosed: 'Results out',
  unknown: 'Status unknown',
  cancelled: 'Cancelled',
};

/** Open polls first (then upcoming, closed, disclosed), each group in the platform's order. */
export function orderForPopup(polls: readonly Poll[], now: number): PollRow[] {
  return polls
    .map((poll, index) => ({ poll, phase: pollTimeline(poll, now).phase, index }))
    .sort((a, b) => phaseOrder[a.phase] - phaseOrder[b.phase] || a.index - b.index)
    .map(({ poll, phase }) => ({ poll, phase }));
}

/** One page of rows and whether there are more. */
export function pageOf<T>(rows: readonly T[], page: number, size: number): { rows: T[]; more: boolean } {
  const start = (page - 1) * size;
  return { rows: rows.slice(start, start + size), more: rows.length > start + size };
}
