import { ProxyClientError, proxyUnreachable } from '../../src/contracts/proxy-client.ts';
import type { VoteChannel } from './vote-channel.ts';
import { WidgetError } from './widget-error.ts';

/**
 * A vote may have counted when no answer came (a timeout or the network) or the proxy could not learn the outcome
 * either (its `vote_uncertain`): the cause is the proxy client's coded error. Any other failure is certain.
 */
export const inDoubt = (error: WidgetError): boolean => {
  const code = proxyCodeOf(error);
  return code === proxyUnreachable || code === 'vote_uncertain';
};

/** The proxy's code behind a card error, when the proxy client's coded error is its cause. */
const proxyCodeOf = (error: WidgetError): string | undefined =>
  error.cause instanceof ProxyClientError ? error.cause.code : undefined;

/**
 * Settles a failed vote, loaded only when a vote fails: a certain failure stays as it is; one in doubt is settled by
 * re-reading the fan's poll, never by voting again. Resolves with the answer the platform shows as the fan's vote;
 * fails as a plain `vote-failed` the fan may retry when the poll shows no vote, as `vote-not-sent` when the proxy
 * knows it never left, and as `vote-uncertain` when the poll could not be read either (the vote may have counted).
 */
export async function settleVote(
  channel: Pick<VoteChannel, 'fanView'>,
  pollId: string,
  failure: WidgetError,
): Promise<string> {
  // The proxy knows the vote never left: nothing to settle. Mapped here, in the chunk a failed vote loads, so that the
  // first-paint chunk stays within its 20 kB budget.
  if (proxyCodeOf(failure) === 'vote_not_sent') {
    throw new WidgetError('vote-not-sent', 'The vote was not sent.', { cause: failure });
  }
  if (!inDoubt(failure)) throw failure;
  const view = await channel.fanView(pollId).catch(() => undefined);
  if (view === undefined) {
    const uncertain = 'The vote may have counted: the fan’s poll could not be read.';
    throw new WidgetError('vote-uncertain', uncertain, { cause: failure });
  }
  const recorded = view.answers.find((answer) => answer.voteStatus !== undefined)?.id;
  if (recorded !== undefined) return recorded;
  // Voted, but no answer says which (an older platform): the card reads the fan's poll again and says so.
  if (view.userVote) throw new WidgetError('already-voted', 'The platform already has this fan’s vote.');
  throw new WidgetError('vote-failed', 'The vote was not counted: the fan’s poll shows no vote.');
}
