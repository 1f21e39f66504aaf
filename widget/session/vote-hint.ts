/**
 * How the documents of one page (its banners) and the other tabs of one proxy tell each other that the fan's vote in
 * a poll is known. A hint only, checked for shape wherever it lands: a card that hears one shows the vote at once and
 * reads the fan's poll from the proxy to confirm it, so a forged hint is undone by that read and never casts a vote.
 * - `voteKnownEvent` (window, `detail`: a `VoteHint`): a card of this document cast or read the fan's vote. The
 *   iframe host loader passes it on to its banners, the banner page to its host.
 * - `voteHeardEvent` (window, same `detail`): a bridge heard of a vote elsewhere; this document's cards take it.
 * - `voteChannelName`: a BroadcastChannel between the documents of one origin (other tabs, same-origin frames).
 */
import { isRecord } from '../../src/contracts/is-record.ts';
import { readOrigin } from '../messages/read-origin.ts';
import { hasOnlyKeys, isShortString } from '../messages/shape.ts';

export const voteKnownEvent = 'fan-polls:vote-known';
export const voteHeardEvent = 'fan-polls:vote-heard';
export const voteChannelName = 'fan-polls:votes';

/** The fan signed in at the proxy of origin `proxy` has a vote for `answerId` in `pollId`. */
export interface VoteHint {
  readonly proxy: string;
  readonly pollId: string;
  readonly answerId: string;
  readonly voteStatus?: string;
}

const hintKeys = ['proxy', 'pollId', 'answerId'] as const;

/** The hint `data` is, rebuilt from its known fields, when it has exactly the shape; else undefined. */
export function readVoteHint(data: unknown): VoteHint | undefined {
  if (!isRecord(data) || !hasOnlyKeys(data, hintKeys, ['voteStatus'])) return undefined;
  const proxy = readOrigin(data.proxy);
  const { pollId, answerId, voteStatus } = data;
  if (!proxy || !isShortString(pollId, 100) || !isShortString(answerId, 100)) return undefined;
  if (voteStatus !== undefined && !isShortString(voteStatus, 40)) return undefined;
  return voteStatus === undefined ? { proxy, pollId, answerId } : { proxy, pollId, answerId, voteStatus };
}

/** The hint a window event of this page carries in its `detail`, when it has the shape. */
export function voteEventHint(event: Event): VoteHint | undefined {
  return readVoteHint((event as CustomEvent<unknown>).detail);
}
