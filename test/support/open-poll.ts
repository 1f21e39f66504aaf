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

/** The ids (lower case, sorted) of the first `count` polls among the proxy's public ones open `marginMs` more. */
export async function openPollIdsFromProxy(
  proxyUrl: string,
  count: number,
  marginMs = 600_000,
): Promise<string[]> {
  const answer = await fetch(`${proxyUrl}/api/polls?limit=50`);
  const now = Date.now();
  return ((await answer.json()) as { data: Poll[] }).data
    .filter(
      (poll) =>
        poll.status !== 'cancelled' &&
        poll.openAt !== undefined &&
        Date.parse(poll.openAt) <= now &&
        poll.closeAt !== undefined &&
        Date.parse(poll.closeAt) > now + marginMs,
    )
    .map((poll) => poll.id.toLowerCase())
    .sort()
    .slice(0, count);
}
