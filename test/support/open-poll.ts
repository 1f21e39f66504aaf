// The sandbox's seeded polls include open ones of the Riverside club: tests vote in those.
import type { Poll } from '../../src/platform/types.ts';

/** The first open Riverside poll that stays open `marginMs` more (and, when given, that `accept` accepts). */
export function openRiversidePoll(
  polls: readonly Poll[],
  options: { now?: number; marginMs?: number; accept?: (poll: Poll) => boolean } = {},
): Poll {
  const now = options.now ?? Date.now();
  const margin = options.marginMs ?? 60_000;
  const poll = polls.find(
    (candidate) =>
      candidate.partnerName.startsWith('Riverside') &&
      candidate.status !== 'cancelled' &&
      candidate.openAt !== undefined &&
      Date.parse(candidate.openAt) <= now &&
      (candidate.closeAt === undefined || Date.parse(candidate.closeAt) > now + margin) &&
      (options.accept?.(candidate) ?? true),
  );
  if (!poll) throw new Error('The sandbox has no open Riverside poll.');
  return poll;
}

/** The first open Riverside poll among the proxy's public polls (`proxyUrl`), open `marginMs` more (default 2 min). */
export async function openRiversidePollFromProxy(proxyUrl: string, marginMs = 120_000): Promise<Poll> {
  const answer = await fetch(`${proxyUrl}/api/polls?limit=50`);
  return openRiversidePoll(((await answer.json()) as { data: Poll[] }).data, { marginMs });
}
