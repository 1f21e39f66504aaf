import { ProxyClientError, proxyUnreachable } from '../../src/contracts/proxy-client.ts';
import type { VoteChannel } from './vote-channel.ts';
import { WidgetError } from './widget-error.ts';

/**
 * A vote may have counted when no answer came (a timeout or the network) or the proxy could not learn the outcome
 * either (its `vote_uncertain`): the cause is the proxy client's coded error. Any other failure is certain.
 */
export const inDoubt = (error: WidgetError): boolean => {
  const code = error.cause instanceof ProxyClientError ? error.cause.code : undefined;
  return code === proxyUnreachable || code === 'vote_uncertain';
};

/**
 * Settles a failed vote, loaded only when a vote fails: a certain failure stays as it is; one in doubt is settled by
 * re-reading the fan's poll, never by voting again. Resolves with the answer the platform shows as the fan's vote, or
 * fails as a plain `vote-failed` the fan may retry.
 */
export async function settleVote(
  channel: Pick<VoteChannel, 'fanView'>,
  pollId: string,
  failure: WidgetError,
): Promise<string> {
  if (!inDoubt(failure)) throw failure;
  const view = await channel.fanView(pollId).catch(() => undefined);
  const recorded = view?.answers.find((answer) => answer.voteStatus !== undefined)?.id;
  if (recorded !== undefined) return recorded;
  // Voted, but no answer says which (an older platform): the card reads the fan's poll again and says so.
  if (view?.userVote) throw new WidgetError('already-voted', 'The platform already has this fan’s vote.');
  throw new WidgetError('vote-failed', 'The vote was not counted: the fan’s poll shows no vote.');
}
