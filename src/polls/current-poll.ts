import type { Poll } from '../platform/types.ts';
import { parsePlatformDate } from './platform-date.ts';
import { pollTimeline } from './poll-phase.ts';

/**
 * A club's current poll among its polls at `nowMs`: the open poll that closes soonest, else the next to open, else the
 * one closed or disclosed most recently, if that was at most `recentMs` ago (its disclosure, else its close). Cancelled
 * polls and polls whose dates cannot be read are never current. Ties go to the smaller id, so that every instance and
 * every fan agree.
 */
export function currentPoll(polls: readonly Poll[], nowMs: number, recentMs: number): Poll | undefined {
  let open: Ranked | undefined;
  let upcoming: Ranked | undefined;
  let ended: Ranked | undefined;
  for (const poll of polls) {
    const { phase } = pollTimeline(poll, nowMs);
    const closeAt = parsePlatformDate(poll.closeAt) ?? NaN;
    if (phase === 'open') open = earlier(open, { poll, at: closeAt });
    else if (phase === 'upcoming')
      upcoming = earlier(upcoming, { poll, at: parsePlatformDate(poll.openAt) ?? NaN });
    else if (phase === 'closed' || phase === 'disclosed') {
      const disclosedAt = parsePlatformDate(poll.disclosedAt);
      const endedAt = phase === 'disclosed' && disclosedAt !== undefined ? disclosedAt : closeAt;
      // Latest first: ranked by the negated instant.
      if (nowMs - endedAt <= recentMs) ended = earlier(ended, { poll, at: -endedAt });
    }
  }
  return (open ?? upcoming ?? ended)?.poll;
}

interface Ranked {
  readonly poll: Poll;
  readonly at: number;
}

function earlier(held: Ranked | undefined, next: Ranked): Ranked | undefined {
  if (Number.isNaN(next.at)) return held;
  if (held === undefined || next.at < held.at) return next;
  if (next.at === held.at && next.poll.id < held.poll.id) return next;
  return held;
}
