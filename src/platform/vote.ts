/**
 * A vote is never retried blindly: when its outcome is in doubt (timeout, network, 5xx), the fan's own poll is
 * read again and `userVote` says whether it counted. A connection that was never made is not in doubt: not re-read.
 */
import type { PlatformClient } from './client.ts';
import { PlatformError, neverReachedPlatform } from './errors.ts';
import type { Poll } from './types.ts';

export { voteRefusalMessages, voteRefusalReason } from './vote-refusal.ts';

const inDoubtCodes = new Set(['timeout', 'network', 'platform_error', 'malformed_response']);

/** Whether a vote that failed this way may still have reached the platform (and counted). */
export function voteInDoubt(error: unknown): error is PlatformError {
  return error instanceof PlatformError && inDoubtCodes.has(error.code) && !neverReachedPlatform(error);
}

export type VoteOutcome =
  /** 201: the platform took the vote. */
  | { readonly status: 'accepted' }
  /** The answer was lost but the re-read shows the fan's vote: it counted. */
  | { readonly status: 'confirmed'; readonly poll: Poll };

/**
 * Votes; when the answer is lost, re-reads the fan's poll once. Throws the original error when the re-read does not
 * show the vote (it did not count: the fan may try again) or when the re-read fails too.
 */
export interface VoteDeadlines {
  /** Ends the vote request (its answer is then in doubt and the poll is re-read). */
  readonly vote?: AbortSignal;
  /** Ends the whole of it, re-read included. */
  readonly all?: AbortSignal;
}

export async function voteAndConfirm(
  client: Pick<PlatformClient, 'vote' | 'getUserPoll'>,
  pollId: string,
  answerId: string,
  deadlines: VoteDeadlines = {},
): Promise<VoteOutcome> {
  try {
    await client.vote(
      pollId,
      answerId,
      deadlines.vote === undefined ? undefined : { signal: deadlines.vote },
    );
    return { status: 'accepted' };
  } catch (error) {
    if (!voteInDoubt(error)) throw error;
    let poll: Poll;
    try {
      poll = await client.getUserPoll(
        pollId,
        deadlines.all === undefined ? undefined : { signal: deadlines.all },
      );
    } catch {
      throw error;
    }
    if (poll.userVote === true) return { status: 'confirmed', poll };
    throw error;
  }
}
