import type { Poll } from '../platform/types.ts';
import { parsePlatformDate } from './platform-date.ts';

export type PollPhase = 'upcoming' | 'open' | 'closed' | 'disclosed' | 'cancelled' | 'unknown';

/** Status words that mean the poll is withdrawn (platform's `cancelled`, and the US spelling). */
const cancelledStatuses = new Set(['cancelled', 'canceled']);
/**
 * Status words that clearly say the poll is not running as its dates suggest. The full set of statuses is not
 * public; any other unknown value lets the dates decide, and the card shows the status read-only.
 */
const notRunningStatuses = new Set([
  'draft',
  'deleted',
  'archived',
  'suspended',
  'paused',
  'disabled',
  'removed',
]);

export interface PollTimeline {
  readonly phase: PollPhase;
  /** Milliseconds until the poll opens; only while upcoming. */
  readonly opensInMs?: number;
  /** Milliseconds until the poll closes; while upcoming or open. */
  readonly closesInMs?: number;
  /** The next instant at which the phase changes by itself (opening, closing, disclosure), if any. */
  readonly nextChangeAt?: number;
}

/**
 * Where a poll stands at `nowMs`. Cancelled by status first; otherwise by dates: before `openAt` upcoming, until
 * `closeAt` open, then closed, and disclosed once both `closeAt` and `disclosedAt` have passed (results are never
 * final before the close). Missing, unreadable or inverted dates, or a status that says the poll is not running,
 * give `unknown`.
 */
export function pollTimeline(
  poll: Pick<Poll, 'status' | 'openAt' | 'closeAt' | 'disclosedAt'>,
  nowMs: number,
): PollTimeline {
  const status = typeof poll.status === 'string' ? poll.status.trim().toLowerCase() : '';
  if (cancelledStatuses.has(status)) return { phase: 'cancelled' };
  if (notRunningStatuses.has(status)) return { phase: 'unknown' };

  const openAt = parsePlatformDate(poll.openAt);
  const closeAt = parsePlatformDate(poll.closeAt);
  if (openAt === undefined || closeAt === undefined || closeAt < openAt) return { phase: 'unknown' };
  const disclosedAt = parsePlatformDate(poll.disclosedAt);

  if (nowMs < openAt) {
    return {
      phase: 'upcoming',
      opensInMs: openAt - nowMs,
      closesInMs: closeAt - nowMs,
      nextChangeAt: openAt,
    };
  }
  if (nowMs < closeAt) return { phase: 'open', closesInMs: closeAt - nowMs, nextChangeAt: closeAt };
  if (disclosedAt !== undefined && nowMs >= disclosedAt) return { phase: 'disclosed' };
  return disclosedAt === undefined ? { phase: 'closed' } : { phase: 'closed', nextChangeAt: disclosedAt };
}
