/**
 * The fan's votes on this page, one per poll and fan: a vote a card cast or read reaches every other card of the
 * same poll at once, so none offers **Vote** for a poll the fan already voted in. Content-free beyond the page: it
 * holds only what this document's cards learnt from their channel. In the card's details chunk, with the voting.
 */

export interface FanVote {
  readonly answerId: string;
  readonly voteStatus?: string | undefined;
}

/** Whose vote: the proxy session's user id, or `extension` for the extension's fan. */
export type FanKey = string;

type Listener = (vote: FanVote) => void;

const known = new Map<string, FanVote>();
const listeners = new Map<string, Set<Listener>>();
const keyOf = (fan: FanKey, pollId: string): string => `${fan}\n${pollId}`;

/**
 * Tells every card of `pollId` (this one's listener too) the fan's vote; a repeat of the known one says nothing.
 * True when it was news to this document (then the other documents are told too, `vote-travel.ts`).
 */
export function shareFanVote(fan: FanKey, pollId: string, vote: FanVote): boolean {
  const key = keyOf(fan, pollId);
  const before = known.get(key);
  if (before?.answerId === vote.answerId && before.voteStatus === vote.voteStatus) return false;
  known.set(key, vote);
  for (const listener of [...(listeners.get(key) ?? [])]) listener(vote);
  return true;
}

/** `listener` hears the fan's known vote in `pollId` now (if any) and every later one; returns the unsubscribe. */
export function followFanVote(fan: FanKey, pollId: string, listener: Listener): () => void {
  const key = keyOf(fan, pollId);
  let set = listeners.get(key);
  if (!set) listeners.set(key, (set = new Set()));
  set.add(listener);
  const vote = known.get(key);
  if (vote) listener(vote);
  return () => {
    set.delete(listener);
    if (set.size === 0) listeners.delete(key);
  };
}
